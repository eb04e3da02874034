// Runs in every standalone server: plain data.
import type { LogLevel } from './_json-log-line.ts';

/** The levels `PLANT_STORE_LOG_LEVEL` takes, most severe first. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const satisfies readonly LogLevel[];

/**
 * Whether a server configured with `threshold` writes a line of `level`:
 * `error` writes errors only, `warn` adds warnings, `info` (the default)
 * adds the startup and access-log lines, `debug` everything.
 *
 * @example
 * writesLevel('warn', 'info'); // false: no access log at warn
 */
export function writesLevel(threshold: LogLevel, level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(threshold);
}
