// Runs anywhere (no runtime API): what createPlantHandler, createPlantResponder and the adapters are configured with.
import type { Authenticate } from './exchange/authenticate.ts';
import type { ErrorContext } from './exchange/plant-exchange.ts';
import type { CorsOptions } from './features/cors/cors-policy.ts';
import type { DocsPage } from './features/docs/docs-page.ts';
import type { ProtocolErrorKind } from './exchange/error-response.ts';
import type { OverloadGate, OverloadOptions } from './features/overload/overload-gate.ts';
import type { PlantMetrics } from './features/metrics/plant-metrics.ts';
import type { PlantStore } from './domain/plant-store.ts';
import type { PlantTracer } from './features/tracing/plant-tracer.ts';
import type { RateLimitOptions } from './features/rate-limit/rate-limiter.ts';

/** Options of `createPlantHandler`, `createPlantResponder` and the adapters' factories. */
export interface PlantHandlerOptions {
  /** Where plants live, e.g. `createMemoryStore()` from `@plant-store/store-memory`. */
  readonly store: PlantStore;
  /**
   * Accepts or rejects a bearer token; required, since no default may let
   * everyone in. Use `staticTokens` for a fixed list of tokens.
   */
  readonly authenticate: Authenticate;
  /** A path prefix the routes live under, e.g. `/api` serves `/api/plants`. Default `''`. */
  readonly basePath?: string;
  /** Largest request body accepted, in bytes; past it, 413 (code 1400). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Longest wait for the store per create; past it, 503 (code 1501). Default 5 s. */
  readonly storeTimeoutMs?: number;
  /**
   * Receives unexpected errors (a throwing verifier, a failing store) with
   * their details, which never reach the client. Default: `logError`,
   * the console. Pass `() => {}` to ignore them.
   */
  readonly onError?: (error: unknown, context: ErrorContext) => void;
  /**
   * Lets pages on the listed origins call the service from a browser:
   * preflights on the routes are answered (200, or 403 with code 1102 for
   * an origin not listed), and every answer to an allowed origin carries
   * `Access-Control-Allow-Origin`. Default: off, and `OPTIONS` gets 405.
   */
  readonly cors?: CorsOptions | undefined;
  /**
   * Gives every answer an `x-request-id`: the request's `X-Request-Id` when it
   * is 1 to 128 characters of `A-Z a-z 0-9 + / = . _ : -`, else a new UUID.
   * It is also handed to `onError`. Default false.
   */
  readonly requestId?: boolean | undefined;
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
   * The refusals the HTTP server around the handler sends itself, before the
   * handler sees a request (`PROTOCOL_ERRORS`: 400 with code 1005, 408 with
   * 1402, 431 with 1403), for the served OpenAPI document to declare. It
   * changes no answer of the handler. `serve()` of `@plant-store/server` and
   * the standalone servers give all three. Default: none, since a handler
   * mounted in a host server does not know what the host answers.
   */
  readonly protocolErrors?: readonly ProtocolErrorKind[] | undefined;
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
