// Runs anywhere (no runtime API): what createPlantHandler, createPlantResponder and the adapters are configured with.
import type { ExchangeOptions } from './exchange/exchange-settings.ts';
import type { CorsOptions } from './features/cors/cors-policy.ts';
import type { DocsPage } from './features/docs/docs-page.ts';
import type { OverloadGate, OverloadOptions } from './features/overload/overload-gate.ts';
import type { PlantMetrics } from './features/metrics/plant-metrics.ts';
import type { PlantTracer } from './features/tracing/plant-tracer.ts';
import type { RateLimitOptions } from './features/rate-limit/rate-limiter.ts';

/** Options of `createPlantHandler`, `createPlantResponder` and the adapters' factories: the handler's own ({@link ExchangeOptions}) and its features'. */
export interface PlantHandlerOptions extends ExchangeOptions {
  /**
   * Lets pages on the listed origins call the service from a browser:
   * preflights on the routes are answered (200, or 403 with code 1102 for
   * an origin not listed), and every answer to an allowed origin carries
   * `Access-Control-Allow-Origin`. Default: off, and `OPTIONS` gets 405.
   */
  readonly cors?: CorsOptions | undefined;
  /**
   * Serves `GET {basePath}/healthz` (200 while the process serves) and
   * `GET {basePath}/readyz` (200 when the store's `ready()` answers, 503 with
   * code 1501 while draining or when it fails or takes longer than
   * `storeTimeoutMs`), without authentication. Default false.
   */
  readonly health?: boolean | undefined;
  /**
   * Serves an API reference page at `GET {basePath}/docs` and its files at
   * `GET {basePath}/docs/<name>`, without authentication, e.g. `docsPage`
   * from `@plant-store/docs-page`. Default: none.
   */
  readonly docs?: DocsPage | undefined;
  /**
   * Counts requests, creates by outcome and the store's latency, and serves
   * them at `GET {basePath}/metrics` in the Prometheus text format, to
   * bearers of an accepted token (docs/operations.md). `true` builds the
   * metrics; pass one from `createPlantMetrics` to feed it a store's group
   * commits too, or to set its labels. Default: off, and nothing is counted.
   */
  readonly metrics?: boolean | PlantMetrics | undefined;
  /**
   * Starts a server span per request and a span for the store under it,
   * continuing the caller's trace from a valid `traceparent`; never with the
   * token. `@plant-store/server`'s `loadOpenTelemetryTracer` makes one from
   * `@opentelemetry/api`. Default: none, and nothing is traced.
   */
  readonly tracer?: PlantTracer | undefined;
  /**
   * Refuses new requests at once with 503 (code 1503) and `Retry-After`
   * while too many are in flight or the event loop is behind (docs/contract.md,
   * "Overload and rate limits"); admitted requests finish, and `/healthz` and
   * `/metrics` are never refused.
   * Options, or a gate from `createOverloadGate` shared by several handlers
   * of one process. Default: off, and nothing is counted.
   */
  readonly overload?: OverloadOptions | OverloadGate | undefined;
  /**
   * Limits each bearer token to `limit` creates per `windowSeconds`: past
   * it, 429 (code 1404) with `Retry-After`, `RateLimit-Policy` and
   * `RateLimit`. Counted in this process's memory, only for authenticated
   * requests: N processes allow N times the rate. Default: off.
   */
  readonly rateLimit?: RateLimitOptions | undefined;
}

export type { ErrorContext } from './exchange/plant-exchange.ts';
