// Runs anywhere (no runtime API): the core's public exports, the one entry of @plant-store/core.
export { readBearerCredential, isBearerTokenSyntax } from './exchange/authenticate.ts';
export { createPlant } from './domain/create-plant.ts';
export { createPlantHandler } from './create-plant-handler.ts';
export { createPlantResponder } from './create-plant-responder.ts';
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, DEFAULT_CORS_MAX_AGE_SECONDS } from './features/cors/cors-policy.ts';
export { DOCS_CONTENT_SECURITY_POLICY } from './features/docs/docs-responses.ts';
export { errorResponse, JSON_HEADERS, PROTOCOL_ERRORS, SHUTTING_DOWN } from './exchange/error-response.ts';
export { errorTable } from './domain/error-table.ts';
export { fail } from './domain/failure.ts';
export { isJsonMediaType } from './exchange/is-json-media-type.ts';
export { logError } from './exchange/log-error.ts';
export { mountPathOption } from './exchange/mount-path-option.ts';
export { createOpenApiDocument } from './openapi-document.ts';
export {
  createOverloadGate,
  DEFAULT_MAX_EVENT_LOOP_DELAY_MS,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_RETRY_AFTER_SECONDS,
  DEFAULT_SAMPLE_INTERVAL_MS,
} from './features/overload/overload-gate.ts';
export { createRateLimiter, DEFAULT_RATE_LIMIT_MAX_TOKENS } from './features/rate-limit/rate-limiter.ts';
export { parseInt64Literal } from './domain/parse-int64-literal.ts';
export { isTracestate, parseTraceparent } from './features/tracing/parse-traceparent.ts';
export { createPlantMetrics, PlantMetrics } from './features/metrics/plant-metrics.ts';
export { escapeLabelValue, PROMETHEUS_CONTENT_TYPE } from './features/metrics/prometheus-text.ts';
export { parseNewPlant } from './domain/parse-new-plant.ts';
export { PendingBody } from './exchange/pending-body.ts';
export { isRequestId, MAX_REQUEST_ID_LENGTH, requestIdOf } from './exchange/request-id.ts';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_STORE_TIMEOUT_MS } from './exchange/exchange-settings.ts';
export { StoreTimeoutError } from './domain/with-timeout.ts';
export { ErrorSchema, INT64_MAX, INT64_MIN, Int64Schema, NewPlantSchema, PlantSchema } from './domain/schemas.ts';
export { staticTokens } from './exchange/static-tokens.ts';
export { summarizeRepeats } from './exchange/summarize-repeats.ts';

export type { Authenticate, AuthenticateDescription, AuthRefusal, AuthVerdict, BearerCredential } from './exchange/authenticate.ts';
export type { CreatePlantOptions, Created } from './domain/create-plant.ts';
export type { DocsPage } from './features/docs/docs-page.ts';
export type { CorsOptions } from './features/cors/cors-policy.ts';
export type { PlantHandler } from './create-plant-handler.ts';
export type { PlantResponder } from './create-plant-responder.ts';
export type { ProtocolErrorKind } from './exchange/error-response.ts';
export type { ErrorEntry, ErrorKind } from './domain/error-table.ts';
export type { Failure, Result } from './domain/failure.ts';
export type { BodyReading, BodyResult, PlantRequest, PlantResponse } from './exchange/http-types.ts';
export type { DocumentedRoutes, OpenApiDocument } from './openapi-document.ts';
export type { OverloadGate, OverloadOptions } from './features/overload/overload-gate.ts';
export type { RateLimiter, RateLimitOptions } from './features/rate-limit/rate-limiter.ts';
export type { Respond } from './exchange/plant-exchange.ts';
export type { ErrorContext, PlantHandlerOptions } from './plant-handler-options.ts';
export type { InsertResult, PlantStore } from './domain/plant-store.ts';
export type { TraceParent } from './features/tracing/parse-traceparent.ts';
export type { PlantMetricsOptions, ProcessSample } from './features/metrics/plant-metrics.ts';
export type { PlantSpan, PlantTracer, RemoteParent, SpanAttributes } from './features/tracing/plant-tracer.ts';
export type { ErrorBody, NewPlant, Plant } from './domain/schemas.ts';
export type { SummarizeRepeatsOptions } from './exchange/summarize-repeats.ts';
