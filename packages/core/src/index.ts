// Runs anywhere (no runtime API): the core's public exports, the one entry of @plant-store/core.
export { readBearerCredential, isBearerTokenSyntax } from './exchange/authenticate.ts';
export { createPlant } from './domain/create-plant.ts';
export { createPlantHandler } from './create-plant-handler.ts';
export { createPlantResponder } from './create-plant-responder.ts';
export { errorResponse, JSON_HEADERS, PROTOCOL_ERRORS, SHUTTING_DOWN } from './exchange/error-response.ts';
export { errorTable } from './domain/error-table.ts';
export { fail } from './domain/failure.ts';
export { isJsonMediaType } from './exchange/is-json-media-type.ts';
export { logError } from './exchange/log-error.ts';
export { mountPathOption } from './exchange/mount-path-option.ts';
export { createOpenApiDocument } from './openapi-document.ts';
export { parseInt64Literal } from './domain/parse-int64-literal.ts';
export { parseNewPlant } from './domain/parse-new-plant.ts';
export { PendingBody } from './exchange/pending-body.ts';
export { isRequestId, MAX_REQUEST_ID_LENGTH, requestIdOf } from './exchange/request-id.ts';
export { routePath } from './exchange/route-path.ts';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_STORE_TIMEOUT_MS } from './exchange/exchange-settings.ts';
export { StoreTimeoutError } from './domain/with-timeout.ts';
export { ErrorSchema, INT64_MAX, INT64_MIN, Int64Schema, NewPlantSchema, PlantSchema } from './domain/schemas.ts';
export { staticTokens } from './exchange/static-tokens.ts';
export { summarizeRepeats } from './exchange/summarize-repeats.ts';
// Each feature's own exports (`features/<name>/index.ts`), as registered.
export * from './features.ts';

export type { Authenticate, AuthenticateDescription, AuthRefusal, AuthVerdict, BearerCredential } from './exchange/authenticate.ts';
export type { CreatePlantOptions, Created } from './domain/create-plant.ts';
export type { PlantHandler } from './create-plant-handler.ts';
export type { PlantResponder } from './create-plant-responder.ts';
export type { ProtocolErrorKind } from './exchange/error-response.ts';
export type { ErrorEntry, ErrorKind } from './domain/error-table.ts';
export type { Failure, Result } from './domain/failure.ts';
export type { BodyReading, BodyResult, PlantRequest, PlantResponse } from './exchange/http-types.ts';
export type { DocumentedRoutes, OpenApiDocument } from './openapi-document.ts';
export type { Respond } from './exchange/plant-exchange.ts';
export type { ErrorContext, PlantHandlerOptions } from './plant-handler-options.ts';
export type { InsertResult, PlantStore } from './domain/plant-store.ts';
export type { ErrorBody, NewPlant, Plant } from './domain/schemas.ts';
export type { SummarizeRepeatsOptions } from './exchange/summarize-repeats.ts';
