// Runs anywhere (no runtime API): how the core waits on a promise or any thenable without making a promise of its own.
import type { Thenable } from '../domain/is-thenable.ts';

/**
 * Goes on with `onValue(context, value)` once `waited` resolves, or with
 * `onFailure(context, error)` once it rejects or its `then` throws: one of
 * the two, once. Whatever `waited` calls back after the first time, or throws
 * after calling back, is ignored, so a careless thenable cannot make the
 * request path run twice.
 *
 * `waited.then` is called directly rather than through a promise
 * (`Promise.resolve(waited).then(…)`): that costs a microtask turn before the
 * callback, and one more for a thenable that is not a promise, while a body
 * reading that calls back from its runtime's own event (the adapters'
 * `PendingBody`) then goes on in that event, as a hand-written server would.
 * `context` is handed back, so that callers pass module-level functions and a
 * wait costs no closure of theirs. Neither callback may throw.
 *
 * @example
 * adoptThenable(store.ready(), exchange, answerReady, answerFailed);
 */
export function adoptThenable<T, C>(
  waited: Thenable<T>,
  context: C,
  onValue: (context: C, value: T) => void,
  onFailure: (context: C, error: unknown) => void,
): void {
  let settled = false;
  const failed = (error: unknown): void => {
    if (settled) return;
    settled = true;
    onFailure(context, error);
  };
  try {
    waited.then((value) => {
      if (settled) return;
      settled = true;
      onValue(context, value);
    }, failed);
  } catch (error) {
    failed(error);
  }
}
