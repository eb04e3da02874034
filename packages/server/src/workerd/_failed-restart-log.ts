// Runs on Node, in the workerd launcher: miniflare's log, which tells the launcher when workerd could not be started again.
import { Log } from 'miniflare';

/** miniflare's log level that writes nothing (its `LogLevel.NONE`). */
const NONE = 0;

/**
 * A log for miniflare that writes nothing, as miniflare's default, and hands
 * `onFailedRestart` the one error the launcher acts on: workerd died, and the
 * workerd miniflare started in its place died as it started (a disk full
 * under D1, say). miniflare then gives up for good, and every request would
 * be answered 503 (1501) until the process is restarted.
 */
export function failedRestartLog(onFailedRestart: () => void): Log {
  return new (class extends Log {
    constructor() {
      super(NONE);
    }

    override error(message: Error): void {
      if ((message as { code?: unknown }).code === 'ERR_RUNTIME_FAILURE') onFailedRestart();
    }
  })();
}
