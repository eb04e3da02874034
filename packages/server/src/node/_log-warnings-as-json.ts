// Runs on Node: the `plant-store` command and its cluster workers.
import { jsonLogLine } from '../common/_json-log-line.ts';

/**
 * Writes the runtime's own warnings (Node 22's "SQLite is an experimental
 * feature") as JSON lines at level `warn` instead of Node's two plain lines,
 * so that a JSON log holds nothing but JSON. Node prints warnings through a
 * `warning` listener of its own, which this one replaces.
 *
 * @param write False when `PLANT_STORE_LOG_LEVEL` is `error`: the warnings are then dropped.
 */
export function logWarningsAsJson(write = true): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (write) console.error(jsonLogLine('warn', { msg: `${warning.name}: ${warning.message}` }));
  });
}
