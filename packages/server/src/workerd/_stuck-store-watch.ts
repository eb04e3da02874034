// Runs on Node, in the workerd launcher: starts workerd again when its D1 keeps failing after the disk came back.

/** How long the Worker's answers must have been 503 with nothing else between before workerd is started again. */
export const STUCK_AFTER_MS = 5_000;
/** The longest wait between two restarts while the Worker keeps answering 503. */
const MAX_WAIT_MS = 60_000;

/** What {@link stuckStoreWatch} needs: the clock, and how to start workerd again (resolves once it serves). */
export interface StuckStoreWatchOptions {
  readonly restart: () => Promise<void>;
  readonly now?: () => number;
}

/** Told of each readiness answer the Worker gives; starts workerd again when they have all been 503 for long enough. */
export interface StuckStoreWatch {
  /** The Worker answered `GET /readyz` with `status`. */
  answered(status: number): void;
  /** No more restarts: the front drains. */
  stop(): void;
}

/**
 * Watches the Worker's answers for a store that stays broken after its disk
 * came back: workerd's D1 keeps answering SQLITE_READONLY once a write of
 * its SQLite database failed (EROFS, EIO, ENOSPC), until workerd is started
 * again, where the other stores reopen or retry by themselves. When every
 * answer to `/readyz` (which asks the store) for {@link STUCK_AFTER_MS} has
 * been 503, at least three of them, `restart` is called; while the answers stay 503 it
 * is called again after twice the wait, up to a minute. Any other answer ends
 * the count. Restarting while the disk is still failing costs a restart (the
 * requests in flight are answered 503 (1501), which says a retry is safe);
 * nothing is restarted on a request the Worker never answered.
 */
export function stuckStoreWatch(options: StuckStoreWatchOptions): StuckStoreWatch {
  const now = options.now ?? Date.now;
  let since: number | undefined;
  let count = 0;
  let waitMs = STUCK_AFTER_MS;
  let restarting = false;
  let stopped = false;
  return {
    answered(status) {
      if (status !== 503) {
        since = undefined;
        count = 0;
        waitMs = STUCK_AFTER_MS;
        return;
      }
      const at = now();
      since ??= at;
      count++;
      if (restarting || stopped || count < 3 || at - since < waitMs) return;
      restarting = true;
      options
        .restart()
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => {
          restarting = false;
          // Counted afresh: answers of the workerd started again decide whether it is started once more.
          since = undefined;
          count = 0;
          waitMs = Math.min(waitMs * 2, MAX_WAIT_MS);
        });
    },
    stop() {
      stopped = true;
    },
  };
}
