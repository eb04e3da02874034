// Runs in the Node, Bun, Deno and workerd launchers.
import type { LogLevel } from './_json-log-line.ts';
import { LOG_LEVELS } from './_log-level.ts';
import type { LogFormat } from './log-format.ts';
import type { StandaloneEnv } from './read-standalone-config.ts';

/**
 * The format of what a launcher says before its settings are read whole (a
 * warning, a start that fails): JSON whenever `PLANT_STORE_LOG_FORMAT` asks
 * for it, even when another setting is what fails, so that a log collector
 * expecting JSON gets nothing else.
 */
export function startLogFormat(env: StandaloneEnv): LogFormat {
  return env.PLANT_STORE_LOG_FORMAT?.trim().toLowerCase() === 'json' ? 'json' : 'text';
}

/**
 * The level of what a launcher says before its settings are read whole:
 * `PLANT_STORE_LOG_LEVEL` when it is one of the levels, else `info`, so
 * that the line saying it is invalid is still written.
 */
export function startLogLevel(env: StandaloneEnv): LogLevel {
  const text = env.PLANT_STORE_LOG_LEVEL?.trim().toLowerCase();
  return LOG_LEVELS.find((level) => level === text) ?? 'info';
}
