// Runs anywhere (no runtime API): telling a value at hand from one still to come.
/**
 * What the core waits on: a promise, or any object with a promise's `then`
 * (a store's own thenable, an adapter's body reading).
 */
export interface Thenable<T> {
  then(onValue: (value: T) => void, onError?: (error: unknown) => void): unknown;
}

/**
 * Whether `value` is a promise (or any thenable) rather than a value at hand.
 * The request path continues at once with a value at hand: a store, verifier
 * or body reader that answers synchronously costs no turn of the event loop.
 */
export function isThenable<V>(value: V): value is Extract<V, { then: unknown }> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
