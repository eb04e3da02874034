/**
 * A request's deadline as a launcher tracks it: it passes once the request
 * has taken too long to arrive. Lighter than an `AbortSignal` per request
 * (no event target, one watcher at a time), because every request gets one.
 */
export interface RequestDeadline {
  /** True once the deadline has passed. */
  readonly passed: boolean;
  /**
   * Has `onPass` called once when the deadline passes (at once if it has
   * passed already); `undefined` stops watching. A new watcher replaces the
   * one before.
   */
  watch(onPass: (() => void) | undefined): void;
}
