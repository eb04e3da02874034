// Runs in the Node, Bun, Deno and workerd launchers.
import { formatLogRecords } from '../common/_format-log-records.ts';
import type { StandaloneEnv } from '../common/read-standalone-config.ts';
import { startLogFormat } from '../common/_start-log-format.ts';

/**
 * Ends a standalone process whose start failed (a setting that cannot work, a
 * database out of reach) with one line naming the cause and exit 1, never a
 * stack trace. The line is `plant-store: <reason>`, as a JSON object (level
 * `error`, that line as `msg`) when `PLANT_STORE_LOG_FORMAT` asks for JSON,
 * even if another setting was what failed.
 */
export function stopOnStartError(error: unknown, env: StandaloneEnv = {}): never {
  console.error(formatLogRecords([{ level: 'error', msg: `plant-store: ${error instanceof Error ? error.message : String(error)}` }], startLogFormat(env)));
  process.exit(1);
}
