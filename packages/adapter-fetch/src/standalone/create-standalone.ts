import { accessLogLine, readStandaloneConfig, type PlantHandlerOptions, type StandaloneConfig, type StandaloneEnv } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { createFetchHandler, type FetchHandler } from '../create-fetch-handler.ts';
import { pathAndQuery } from '../fetch-plant-request.ts';

/**
 * What a standalone server is built from, given its configuration: by default
 * a fresh memory store and the configured tokens. Tests pass their own.
 */
export type BuildOptions = (config: StandaloneConfig, env: StandaloneEnv) => Pick<PlantHandlerOptions, 'store' | 'authenticate'>;

/** A standalone Fetch server's configuration and its handler, access log included. */
export interface Standalone {
  readonly config: StandaloneConfig;
  readonly fetch: FetchHandler;
}

const defaultBuild: BuildOptions = (config) => ({ store: createMemoryStore(), authenticate: config.authenticate });

/**
 * Builds what every standalone Fetch runtime (Bun, Deno, workerd) serves: the
 * same configuration from the same variables, the same handler, the same
 * access-log lines as the Node server.
 */
export function createStandalone(env: StandaloneEnv, log: (line: string) => void, build: BuildOptions = defaultBuild): Standalone {
  const config = readStandaloneConfig(env);
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
