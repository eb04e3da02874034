/**
 * Whether `value` is a promise (or any thenable) rather than a value at hand.
 * The request path continues at once with a value at hand: a store, verifier
 * or body reader that answers synchronously costs no turn of the event loop.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
