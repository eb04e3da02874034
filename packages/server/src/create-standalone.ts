import { createFetchHandler, pathAndQuery, type FetchHandler } from '@plant-store/adapter-fetch';
import type { PlantHandlerOptions } from '@plant-store/core';
import { accessLogLine } from './access-log.ts';
import { readStandaloneConfig, type StandaloneConfig, type StandaloneEnv } from './read-standalone-config.ts';

/**
 * What a standalone server serves, given its configuration: the launchers'
 * own build opens the configured store with the configured tokens; test
 * fixtures pass theirs (a failing store, a throwing verifier) to run the
 * production launcher with a fault.
 */
export type BuildOptions = (config: StandaloneConfig, env: StandaloneEnv) => ServedOptions;

/** The handler options a standalone server decides: the store, the tokens, where errors go. */
export type ServedOptions = Pick<PlantHandlerOptions, 'store' | 'authenticate' | 'onError'>;

/** A standalone Fetch server's configuration and its handler, access log included. */
export interface Standalone {
  readonly config: StandaloneConfig;
  readonly fetch: FetchHandler;
}

/**
 * Builds what every standalone Fetch runtime (Bun, Deno, workerd) serves: the
 * same configuration from the same variables, the same handler, the same
 * access-log lines as the Node server.
 *
 * @param log Receives one access-log line per request.
 * @param build What to serve, given the settings.
 * @param config The settings, when the caller has read them already.
 */
export function createStandalone(
  env: StandaloneEnv,
  log: (line: string) => void,
  build: BuildOptions,
  config: StandaloneConfig = readStandaloneConfig(env),
): Standalone {
  const handler = createFetchHandler(build(config, env));
  if (!config.accessLog) return { config, fetch: handler };
  return {
    config,
    async fetch(request, context) {
      const started = performance.now();
      const response = await handler(request, context);
      log(accessLogLine(request.method, pathAndQuery(request.url), response.status, performance.now() - started));
      return response;
    },
  };
}
