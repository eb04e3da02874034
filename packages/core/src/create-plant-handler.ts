// Runs anywhere (no runtime API): the handler over plain data that answers with a promise.
import { createPlantResponder } from './create-plant-responder.ts';
import type { PlantRequest, PlantResponse } from './exchange/http-types.ts';
import type { PlantHandlerOptions } from './plant-handler-options.ts';

/** A handler over plain data; see {@link createPlantHandler}. */
export type PlantHandler = (request: PlantRequest) => Promise<PlantResponse>;

/**
 * Builds the Plant Store HTTP handler over plain data: a {@link PlantRequest}
 * in, a promise of a {@link PlantResponse} out. It serves `POST {basePath}/plants` (routing,
 * authentication, body, validation, storage, in the order of
 * docs/contract.md, "Order of checks") and `GET {basePath}/openapi.json`
 * (no authentication), gives each request an id with `requestId`, and has
 * the features of `features.ts` when their options are given: `health`
 * (`GET {basePath}/healthz` and `/readyz`), `cors`, `docs` (the page at
 * `GET {basePath}/docs`), `metrics` (`GET {basePath}/metrics`), `tracer`
 * (spans), `overload` (503 at once past its bounds) and `rateLimit` (429 per
 * token). It never rejects: unexpected errors go to `onError` and the
 * client gets a bare 500. {@link createPlantResponder} is the same handler
 * answering through a callback, for adapters that write the answer themselves.
 *
 * @throws TypeError at construction for invalid options.
 * @example
 * const handle = createPlantHandler({
 *   store: createMemoryStore(),
 *   authenticate: staticTokens(['s3cret-token']),
 * });
 * const response = await handle(request); // { status, headers, body }
 */
export function createPlantHandler(options: PlantHandlerOptions): PlantHandler {
  const respondTo = createPlantResponder(options, 'createPlantHandler');
  return (request) => new Promise((resolve) => respondTo(request, resolve));
}
