// Runs on Bun (the standalone Bun launcher) and on workerd (the Worker): a standalone Fetch handler.
import type { FetchHandler } from '@plant-store/adapter-fetch';
import { createFetchHandlerWithIds, pathAndQuery, type SharedBody } from '@plant-store/adapter-fetch/internal';
import { parseTraceparent } from '@plant-store/core';
import type { BuildOptions } from '../common/build-options.ts';
import { formatAccessLog } from '../common/format-access-log.ts';
import { readStandaloneConfig, type StandaloneConfig, type StandaloneEnv } from '../common/read-standalone-config.ts';
import { standaloneHandlerOptions } from '../common/_standalone-handler-options.ts';

/** A standalone Fetch server's configuration and its handler, access log included. */
export interface Standalone {
  readonly config: StandaloneConfig;
  readonly fetch: FetchHandler;
}

/**
 * Builds what every standalone Fetch runtime (Bun, Deno, workerd) serves: the
 * same configuration from the same variables, the same handler, the same
 * access-log lines as the Node server, in the configured format.
 *
 * @param log Receives one access-log line per request (the answers of a request deadline and of draining included).
 * @param build What to serve, given the settings.
 * @param config The settings, when the caller has read them already.
 * @param sharedBody What the docs files' shared bytes are answered as, when not the adapter's one Blob each (Bun: large ones paced).
 */
export function createStandalone(
  env: StandaloneEnv,
  log: (line: string) => void,
  build: BuildOptions,
  config: StandaloneConfig = readStandaloneConfig(env),
  sharedBody?: SharedBody,
): Standalone {
  const options = standaloneHandlerOptions(config, build(config, env));
  // Access-log lines are written at level info.
  if (!config.accessLog) return { config, fetch: createFetchHandlerWithIds(options, undefined, sharedBody) };
  const traced = config.logFormat === 'json';
  // The handler tells the id the core chose for each answer, keyed by the request, which the log below
  // holds until it writes the line. Only a JSON line has the ids: for a text line, the two maps cost every request.
  const requestIds = new WeakMap<Request, string>();
  const traceIds = new WeakMap<Request, string>();
  const handler = createFetchHandlerWithIds(
    options,
    traced
      ? (request, requestId, traceId) => {
          requestIds.set(request, requestId);
          if (traceId !== undefined) traceIds.set(request, traceId);
        }
      : undefined,
    sharedBody,
  );
  const format = formatAccessLog(config.logFormat);
  return {
    config,
    async fetch(request, context) {
      const started = performance.now();
      const response = await handler(request, context);
      const ms = performance.now() - started;
      log(
        format({
          method: request.method,
          url: pathAndQuery(request.url),
          status: response.status,
          ms,
          requestId: requestIds.get(request),
          traceId: traced ? (traceIds.get(request) ?? parseTraceparent(request.headers.get('traceparent') ?? undefined)?.traceId) : undefined,
        }),
      );
      return response;
    },
  };
}
