// Runs in every standalone launcher (Node, Bun, Deno, workerd's front and its Worker): the handler options they share.
import { PROTOCOL_ERRORS, type PlantHandlerOptions, type ProtocolErrorKind } from '@plant-store/core';
import { docsPage } from '@plant-store/docs-page';
import type { ServedOptions } from './build-options.ts';
import type { StandaloneConfig } from './read-standalone-config.ts';
import { standaloneErrorLog } from './_standalone-error-log.ts';

/**
 * The handler options of every standalone server, on every runtime: what it
 * serves (`served`: the store and tokens), and what operators expect of a
 * server of its own: a request id on every answer, `/healthz` and `/readyz`,
 * the docs page (unless `PLANT_STORE_DOCS=off`), CORS for the origins of
 * `PLANT_STORE_CORS_ORIGINS`, unexpected errors in the configured log
 * format (unless `served` has its own `onError`), the metrics at `/metrics`
 * behind the token (unless `PLANT_STORE_METRICS=off`; those `served` made, or
 * new ones), a tracer `served` brings, and the refusals of
 * requests the server cannot read declared in the served document (the
 * Node, Deno and workerd servers send all three; Bun sends 408 itself and
 * leaves the other two to the runtime).
 */
export function standaloneHandlerOptions(config: StandaloneConfig, served: ServedOptions): PlantHandlerOptions {
  return {
    ...served,
    onError: served.onError ?? standaloneErrorLog(config.logFormat),
    requestId: true,
    health: true,
    protocolErrors: Object.keys(PROTOCOL_ERRORS) as ProtocolErrorKind[],
    ...(config.docs ? { docs: docsPage } : {}),
    metrics: config.metrics ? (served.metrics ?? true) : false,
    ...(config.overload === undefined ? {} : { overload: config.overload }),
    ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
    ...(config.corsOrigins === '*' || config.corsOrigins.length > 0 ? { cors: { origins: config.corsOrigins } } : {}),
  };
}
