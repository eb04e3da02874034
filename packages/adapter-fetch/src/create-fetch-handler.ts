import { createPlantHandler, PROTOCOL_ERRORS, type PlantHandlerOptions } from '@plant-store/core';
import { FetchPlantRequest } from './fetch-plant-request.ts';

/** Options of {@link createFetchHandler}: exactly the core's handler options. */
export type FetchHandlerOptions = PlantHandlerOptions;

/** What a Worker or a launcher passes beside the request. */
export interface FetchContext {
  /** Keeps background work alive after the answer (Workers). */
  waitUntil?(promise: Promise<unknown>): void;
  /** The server is stopping: the core answers 503 (see `PlantRequest.draining`). */
  readonly draining?: boolean;
  /**
   * Aborted by a launcher once the request has taken too long to arrive: a
   * body still being read is cut and the answer is 408 (1402) with
   * `Connection: close`, as the standalone Node server's request timeout; a
   * body being dropped after the answer stops.
   */
  readonly deadline?: AbortSignal;
}

const { status: TIMEOUT_STATUS, headers: TIMEOUT_HEADERS, body: TIMEOUT_BODY } = PROTOCOL_ERRORS['request-timeout'];

/** A Fetch-API handler, as `Deno.serve`, `Bun.serve` and Workers take it. */
export type FetchHandler = (request: Request, context?: FetchContext) => Promise<Response>;

/**
 * Serves Plant Store as a Fetch-API handler (`Request` → `Response`) for
 * Deno, Bun, Cloudflare Workers and any other WinterCG runtime. The body limit
 * is enforced while streaming, so a chunked upload is never buffered past it.
 *
 * @example
 * const fetch = createFetchHandler({
 *   store: createMemoryStore(),
 *   authenticate: staticTokens(['s3cret-token']),
 * });
 * Deno.serve(fetch); // or Bun.serve({ fetch }), or export default { fetch }
 */
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler {
  const handle = createPlantHandler(options);
  return async function plantStoreFetchHandler(request, context) {
    const plantRequest = new FetchPlantRequest(request, context?.draining === true, context?.deadline);
    const response = await handle(plantRequest);
    if (plantRequest.timedOut) return new Response(TIMEOUT_BODY, { status: TIMEOUT_STATUS, headers: { ...TIMEOUT_HEADERS, connection: 'close' } });
    plantRequest.discardUnread();
    // A Worker cancels what runs after its answer unless told to wait for it.
    const discarding = plantRequest.discarding;
    if (discarding !== undefined && typeof context?.waitUntil === 'function') context.waitUntil(discarding);
    return new Response(response.body, { status: response.status, headers: response.headers });
  };
}
