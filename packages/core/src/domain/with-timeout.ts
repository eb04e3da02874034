// Runs anywhere: a store call bounded in time (setTimeout, which every runtime has).
/** Raised when the store does not answer within its deadline; goes to `onError`. */
export class StoreTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`the plant store did not answer within ${timeoutMs} ms`);
    this.name = 'StoreTimeoutError';
  }
}

interface Pending {
  readonly started: number;
  readonly reject: (error: StoreTimeoutError) => void;
}

/** Calls waiting on a store, by timeout value, all watched by one timer. */
interface Watch {
  readonly waiting: Set<Pending>;
  /** Whether the timer is set; it stays set while calls keep coming. */
  armed: boolean;
}

const watches = new Map<number, Watch>();

/**
 * `promise`, or a {@link StoreTimeoutError} when it takes longer than
 * `timeoutMs` (noticed within half that again). One timer per timeout value
 * checks every call still waiting, rather than one timer per call: on a busy
 * server, a timer per request costs a fifth of the throughput.
 */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let watch = watches.get(timeoutMs);
  if (watch === undefined) watches.set(timeoutMs, (watch = { waiting: new Set(), armed: false }));
  if (!watch.armed) arm(watch, timeoutMs);
  const set = watch.waiting;
  return new Promise<T>((resolve, reject) => {
    const pending: Pending = { started: Date.now(), reject };
    set.add(pending);
    promise.then(
      (value) => {
        set.delete(pending);
        resolve(value);
      },
      (error: unknown) => {
        set.delete(pending);
        reject(error);
      },
    );
  });
}

function arm(watch: Watch, timeoutMs: number): void {
  watch.armed = true;
  const timer = setTimeout(
    () => {
      const now = Date.now();
      for (const pending of watch.waiting) {
        if (now - pending.started >= timeoutMs) {
          watch.waiting.delete(pending);
          pending.reject(new StoreTimeoutError(timeoutMs));
        }
      }
      // Re-armed at once only while calls wait; otherwise by the next call.
      watch.armed = false;
      if (watch.waiting.size > 0) arm(watch, timeoutMs);
    },
    Math.max(1, timeoutMs / 2),
  );
  // Node and Bun can then exit with the timer pending; elsewhere it just runs.
  (timer as { unref?: () => void } | undefined)?.unref?.();
}
