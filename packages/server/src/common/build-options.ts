// Runs wherever a standalone server is built (the Node, Bun, Deno and workerd launchers, and the Worker): types only.
import type { PlantHandlerOptions } from '@plant-store/core';
import type { StandaloneConfig, StandaloneEnv } from './read-standalone-config.ts';

/**
 * What a standalone server serves, given its configuration: the launchers'
 * own build opens the configured store with the configured tokens; test
 * fixtures pass theirs (a failing store, a throwing verifier) to run the
 * production launcher with a fault.
 */
export type BuildOptions = (config: StandaloneConfig, env: StandaloneEnv) => ServedOptions;

/**
 * The handler options a standalone server decides: the store, the tokens,
 * where errors go, and the metrics (fed by the store's group commits) and
 * tracer the launcher made.
 */
export type ServedOptions = Pick<PlantHandlerOptions, 'store' | 'authenticate' | 'onError' | 'metrics' | 'tracer'>;
