// Runs anywhere (no runtime API): the body reading the adapters settle from their runtime's own events.
import type { BodyReading, BodyResult } from './http-types.ts';

/**
 * A {@link BodyReading} an adapter settles itself, from its runtime's own
 * callback (Node's `'end'`, a Fetch body's promise, a deadline passing):
 * settled once, later results ignored; every `then` is called back once, at
 * once when it is already settled, so the core goes on in the adapter's
 * callback rather than a microtask turn later. It never fails.
 *
 * @example
 * const reading = new PendingBody();
 * req.on('end', () => reading.settle({ ok: true, bytes }));
 * return reading; // from PlantRequest.readBody
 */
export class PendingBody implements BodyReading {
  private result: BodyResult | undefined = undefined;
  private waiting: ((body: BodyResult) => void) | undefined = undefined;
  private more: ((body: BodyResult) => void)[] | undefined = undefined;
  /** The first wait of {@link thenWith}, kept as its context and function rather than a closure over both. */
  private context: unknown = undefined;
  private onContext: ((context: unknown, body: BodyResult) => void) | undefined = undefined;

  then(onRead: (body: BodyResult) => void): void {
    if (this.result !== undefined) onRead(this.result);
    else if (this.waiting === undefined) this.waiting = onRead;
    else (this.more ??= []).push(onRead);
  }

  /**
   * {@link then}, calling back `onRead(context, body)`: the core's own wait
   * (answerAfter) passes a module-level step and its exchange, so that it
   * costs no closure, where a `then` costs two (adoptThenable's guards).
   * Called back once, in the order the waits came, as `then`.
   */
  thenWith<C>(context: C, onRead: (context: C, body: BodyResult) => void): void {
    if (this.result !== undefined) onRead(context, this.result);
    else if (this.onContext === undefined && this.waiting === undefined) {
      this.context = context;
      this.onContext = onRead as (context: unknown, body: BodyResult) => void;
    } else this.then((body) => onRead(context, body));
  }

  /**
   * Hands `result` to every `then`, now and later; the first call wins. A
   * callback that throws does not keep the others from theirs; the first
   * such error is thrown once all have been called.
   */
  settle(result: BodyResult): void {
    if (this.result !== undefined) return;
    this.result = result;
    const { waiting, more, context, onContext } = this;
    this.waiting = this.more = this.onContext = this.context = undefined;
    if (onContext === undefined && more === undefined) {
      waiting?.(result);
      return;
    }
    if (onContext !== undefined && waiting === undefined) {
      onContext(context, result);
      return;
    }
    // A thenWith wait always came first: it only takes its own place while no other wait is there.
    const first = onContext === undefined ? [] : [(body: BodyResult) => onContext(context, body)];
    let failed: { error: unknown } | undefined;
    for (const onRead of [...first, waiting!, ...(more ?? [])]) {
      try {
        onRead(result);
      } catch (error) {
        failed ??= { error };
      }
    }
    if (failed !== undefined) throw failed.error;
  }
}
