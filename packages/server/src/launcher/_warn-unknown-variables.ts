// Runs in the Node, Bun, Deno and workerd launchers, before the server starts.
import { formatLogRecords } from '../common/_format-log-records.ts';
import type { StandaloneEnv } from '../common/read-standalone-config.ts';
import { startLogFormat, startLogLevel } from '../common/_start-log-format.ts';
import { unknownVariableWarnings } from '../common/_unknown-variable-warnings.ts';
import type { Runtime } from '../common/_standalone-variables.ts';

/**
 * Writes {@link unknownVariableWarnings} to standard error, in the log format
 * asked for, before anything else is read, so that they are seen even when
 * the start then fails (a misspelt `PLANT_STORE_DATABASE_URL` leaves the
 * default SQLite file, which may be what cannot be opened).
 *
 * @param names Every name in the environment; none where it cannot be listed (Deno without full `--allow-env`).
 */
export function warnUnknownVariables(names: Iterable<string>, runtime: Runtime, env: StandaloneEnv): void {
  const records = unknownVariableWarnings(names, runtime);
  const text = formatLogRecords(records, startLogFormat(env), startLogLevel(env));
  if (text !== '') console.error(text);
}
