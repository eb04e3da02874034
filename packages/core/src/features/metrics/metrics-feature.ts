// Runs anywhere (no runtime API): the `metrics` option: each request counted, and `GET {basePath}/metrics` behind the bearer token.
import { authRefusalResponse } from '../../exchange/auth-refusal-response.ts';
import { authenticateThen } from '../../exchange/authenticate-then.ts';
import type { Feature } from '../../exchange/feature.ts';
import type { PlantResponse } from '../../exchange/http-types.ts';
import { errorRef } from '../../exchange/openapi-document.ts';
import type { PlantExchange, Route } from '../../exchange/plant-exchange.ts';
import { MetricsWatch } from './metrics-watch.ts';
import { PlantMetrics } from './plant-metrics.ts';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus-text.ts';

// Never cached; and a new connection per scrape, so that with several processes on one
// port the scrapes are spread over them rather than kept on one by keep-alive.
const METRICS_HEADERS = Object.freeze({ 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store', connection: 'close' });

const METRICS_PATHS = {
  '/metrics': {
    get: {
      operationId: 'getMetrics',
      summary: 'Metrics',
      description:
        'The metrics of this process in the Prometheus text format (version 0.0.4): requests by route, method and status, creates by outcome and error code, the store, requests in flight, draining. The same bearer token as a create; also while the server drains.',
      responses: {
        '200': { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } },
        '401': errorRef(401),
      },
    },
  },
};

/** The handler's `metrics` option, as `PlantHandlerOptions` has it. */
export interface MetricsOption {
  /**
   * Counts requests, creates by outcome and the store's latency, and serves
   * them at `GET {basePath}/metrics` in the Prometheus text format, to
   * bearers of an accepted token (docs/operations.md). `true` builds the
   * metrics; pass one from `createPlantMetrics` to feed it a store's group
   * commits too, or to set its labels. Default: off, and nothing is counted.
   */
  readonly metrics?: boolean | PlantMetrics | undefined;
}

/** The `metrics` flag of `DocumentedRoutes`. */
export interface MetricsRoutes {
  /** `GET /metrics`, behind the bearer token (the handler's `metrics` option). */
  readonly metrics?: boolean;
}

/**
 * The `metrics` option (`true`, or metrics made by `createPlantMetrics` to
 * share): every request counted, and the metrics in the Prometheus text
 * format at `/metrics`, behind the same bearer token as a create, so that
 * they are never public unless the operator hands the token out
 * (docs/operations.md, "Keeping the metrics private"); answered while
 * draining, and never refused as overloaded.
 */
export const metricsFeature: Feature<'metrics', MetricsOption, MetricsRoutes> = {
  option: 'metrics',
  document: { paths: METRICS_PATHS },
  resolve(given, { caller, basePath }) {
    if (given === undefined || given === false) return undefined;
    const metrics = given === true ? new PlantMetrics() : given;
    if (!(metrics instanceof PlantMetrics)) throw new TypeError(`${caller}: \`metrics\` must be a boolean or made by createPlantMetrics`);
    const ifAccepted = (_exchange: PlantExchange, verdict: unknown): PlantResponse =>
      verdict !== true ? authRefusalResponse(verdict) : { status: 200, headers: METRICS_HEADERS, body: metrics.expose() };
    const route: Route = {
      name: 'metrics',
      template: '/metrics',
      allow: 'GET',
      answer: (exchange) => authenticateThen(exchange, ifAccepted),
      whileDraining: true,
      pastOverload: true,
    };
    return { routes: [['/metrics', route]], watch: (request, route) => new MetricsWatch(metrics, basePath, request, route) };
  },
};
