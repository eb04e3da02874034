// Runs on Node, on Deno (its node:http): the standalone node:http server of Plant Store.
import type { NodeHandlerOptions } from '@plant-store/adapter-node';
import { createNodeHandlerWithIds } from '@plant-store/adapter-node/internal';
import { createPlantMetrics, PROTOCOL_ERRORS, type ProtocolErrorKind } from '@plant-store/core';
import { recordRequestId } from './_request-ids.ts';
import { serveNodeHttp, type RunningServer, type ServerOptions } from './serve-node-http.ts';

export type { RunningServer, ServerOptions } from './serve-node-http.ts';

/** Options of {@link serve}: the handler's options plus the server's own. */
export interface ServeOptions extends NodeHandlerOptions, ServerOptions {}

/**
 * Starts a standalone `node:http` server for Plant Store, with the timeouts
 * that keep slow clients from holding connections, an access log and a
 * graceful close.
 *
 * @example
 * const running = await serve({
 *   port: 8080,
 *   store: createMemoryStore(),
 *   authenticate: staticTokens(['s3cret-token']),
 * });
 * process.once('SIGTERM', () => running.close().then(() => process.exit(0)));
 */
export function serve(options: ServeOptions): Promise<RunningServer> {
  // This server sends every protocol error itself, so the document it serves declares them.
  // Made here for `metrics: true`, so that a close can say the server drains.
  const metrics = options.metrics === true ? createPlantMetrics() : options.metrics || undefined;
  const handlerOptions = { protocolErrors: Object.keys(PROTOCOL_ERRORS) as ProtocolErrorKind[], ...options, metrics };
  // The access log learns each answer's request id from the core, as the answer is written.
  const handler = createNodeHandlerWithIds(handlerOptions, options.accessLog === false ? undefined : recordRequestId);
  const started = serveNodeHttp(handler, options, options.requestId === true);
  if (metrics === undefined) return started;
  return started.then((running) => ({
    ...running,
    close() {
      metrics.setDraining(true);
      return running.close();
    },
  }));
}
