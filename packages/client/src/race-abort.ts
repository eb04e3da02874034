// Runs wherever the client runs: browsers, Node 20+, Bun, Deno and Workers (AbortSignal only).

/**
 * `promise`, or a rejection with `signal`'s reason as soon as it aborts,
 * whichever comes first, for work the signal may not reach (a `fetch` option
 * that does not pass it on). What `promise` brings after the abort goes to
 * `onLate`, so that it can be let go.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, onLate?: (late: T) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      reject(signal.reason);
      promise.then(
        (late) => onLate?.(late),
        () => {},
      );
    };
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    );
  });
}
