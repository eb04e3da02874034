// Runs in the Node, Bun, Deno and workerd launchers, before the server starts: plain data, no runtime API.
import type { LogRecord } from './_format-log-records.ts';
import { nearestName } from './_nearest-name.ts';
import { STANDALONE_VARIABLES, WORKER_OF, type Runtime } from './_standalone-variables.ts';

const PREFIX = 'PLANT_STORE_';
/** Variables the server sets for itself; never a user's typo. */
const INTERNAL: readonly string[] = [WORKER_OF];
/** Listed for some runtimes only, yet read and checked on every one (workerd refuses a bad value, then runs one process). */
const CHECKED_EVERYWHERE: readonly string[] = ['PLANT_STORE_WORKERS'];

/**
 * A warning for each variable in `names` that looks meant for the server
 * (it starts with `PLANT_STORE_`, in any case) but that the server on
 * `runtime` does not read, since a misspelt setting is otherwise silently
 * ignored and its default applies: `PLANT_STORE_TOKEN` would leave the
 * server with a token it made. Each names the nearest variable it reads
 * (`PLANT_STORE_PORT` → `PORT`), as "did you mean" when it is a few edits
 * away, and a variable of another runtime (`PLANT_STORE_D1_DIR` on Node)
 * says so. Warnings, not errors: a variable meant for something else that
 * shares the prefix must not stop a server.
 *
 * @param names The names in the environment (Node's `process.env`, `Deno.env.toObject()`).
 */
export function unknownVariableWarnings(names: Iterable<string>, runtime: Runtime): LogRecord[] {
  const here = STANDALONE_VARIABLES.filter((variable) => variable.only?.includes(runtime) ?? true);
  const records: LogRecord[] = [];
  for (const name of [...names].sort()) {
    if (
      !name.toUpperCase().startsWith(PREFIX) ||
      INTERNAL.includes(name) ||
      CHECKED_EVERYWHERE.includes(name) ||
      here.some((variable) => variable.name === name)
    )
      continue;
    const elsewhere = STANDALONE_VARIABLES.find((variable) => variable.name === name);
    if (elsewhere?.only !== undefined) {
      records.push({
        level: 'warn',
        msg: `plant-store: ${name} is read on ${elsewhere.only.join(' and ')} only, so it is ignored on ${runtime}`,
        fields: { variable: name },
      });
      continue;
    }
    const nearest = nearestName(
      [name, name.slice(PREFIX.length)],
      here.map((variable) => variable.name),
    );
    // A few edits from a name, a third of it at most: a typo, not another word.
    const close = nearest.distance <= Math.max(2, Math.floor(nearest.name.replace(PREFIX, '').length / 3));
    const hint = close ? `did you mean ${nearest.name}?` : `the nearest is ${nearest.name}, and --help lists them all`;
    records.push({ level: 'warn', msg: `plant-store: ${name} is not a setting, so it is ignored; ${hint}`, fields: { variable: name, nearest: nearest.name } });
  }
  return records;
}
