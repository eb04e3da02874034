// Runs in the Node, Bun, Deno and workerd launchers.
import type { LogFormat, StandaloneEnv } from './read-standalone-config.ts';

/**
 * The format of what a launcher says before its settings are read whole (a
 * warning, a start that fails): JSON whenever `PLANT_STORE_LOG_FORMAT` asks
 * for it, even when another setting is what fails, so that a log collector
 * expecting JSON gets nothing else.
 */
export function startLogFormat(env: StandaloneEnv): LogFormat {
  return env.PLANT_STORE_LOG_FORMAT?.trim().toLowerCase() === 'json' ? 'json' : 'text';
}
