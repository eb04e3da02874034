import { readBearerCredential, type Authenticate } from './authenticate.ts';
import { createPlant } from './create-plant.ts';
import { errorResponse, JSON_HEADERS, SHUTTING_DOWN } from './error-response.ts';
import type { Failure } from './failure.ts';
import type { PlantRequest, PlantResponse } from './http-types.ts';
import { isJsonMediaType } from './is-json-media-type.ts';
import { logError } from './log-error.ts';
import { createOpenApiDocument } from './openapi-document.ts';
import { parseNewPlant } from './parse-new-plant.ts';
import type { PlantStore } from './plant-store.ts';
import { routePath } from './route-path.ts';

/** Where an unexpected error was caught, for logs. */
export interface ErrorContext {
  readonly request: PlantRequest;
  /** The failure the client was answered with. */
  readonly kind: 'internal' | 'storage-unavailable';
}

/** Options of {@link createPlantHandler}. */
export interface PlantHandlerOptions {
  /** Where plants live, e.g. `createMemoryStore()` from `@plant-store/store-memory`. */
  readonly store: PlantStore;
  /**
   * Accepts or rejects a bearer token; required, since no default may let
   * everyone in. Use {@link staticTokens} for a fixed list of tokens.
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
   * their details, which never reach the client. Default: {@link logError},
   * the console. Pass `() => {}` to ignore them.
   */
  readonly onError?: (error: unknown, context: ErrorContext) => void;
}

/** A handler over plain data; see {@link createPlantHandler}. */
export type PlantHandler = (request: PlantRequest) => Promise<PlantResponse>;

/** Default {@link PlantHandlerOptions.maxBodyBytes}: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Default {@link PlantHandlerOptions.storeTimeoutMs}: 5 s. */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

const NOT_FOUND: PlantResponse = { ...errorResponse('not-found', 'no such route'), unmatched: true };
const UNAUTHENTICATED = errorResponse('unauthenticated', 'authorization: expected "Bearer <token>"');
const TOKEN_REJECTED = errorResponse('token-rejected', 'authorization: the token was rejected');
const POST_ONLY = errorResponse('method-not-allowed', 'method not allowed; allowed: POST', { allow: 'POST' });
const GET_ONLY = errorResponse('method-not-allowed', 'method not allowed; allowed: GET', { allow: 'GET' });
// Documents kept for this many distinct mount points; more are built per request.
const MAX_CACHED_DOCUMENTS = 16;
const BODY_MISSING = errorResponse('body-missing', 'body: required; expected a JSON NewPlant object');
const BODY_ABORTED = errorResponse('body-missing', 'body: the request body was not received completely');
const UNSUPPORTED_MEDIA_TYPE = errorResponse('unsupported-media-type', 'content-type: expected application/json (UTF-8)');
const INTERNAL = errorResponse('internal', 'internal error');

/**
 * Builds the Plant Store HTTP handler over plain data: a {@link PlantRequest}
 * in, a {@link PlantResponse} out. It serves `POST {basePath}/plants` (routing,
 * authentication, body, validation, storage, in the order of
 * docs/contract.md, "Order of checks") and
 * `GET {basePath}/openapi.json` (no authentication), and never rejects:
 * unexpected errors go to `onError` and the client gets a bare 500.
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
  const { store, authenticate } = options;
  const basePath = normaliseBasePath(options.basePath ?? '');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const createOptions = { timeoutMs: options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS };
  const onError = options.onError ?? logError;
  if (typeof store?.insertIfAbsent !== 'function') throw new TypeError('createPlantHandler: `store` must be a PlantStore');
  if (typeof authenticate !== 'function') throw new TypeError('createPlantHandler: `authenticate` is required');
  for (const [name, value] of [
    ['maxBodyBytes', maxBodyBytes],
    ['storeTimeoutMs', createOptions.timeoutMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`createPlantHandler: \`${name}\` must be a non-negative integer`);
  }

  const bodyTooLarge = errorResponse('body-too-large', `body: larger than the limit of ${maxBodyBytes} bytes`);
  const plantsPath = `${basePath}/plants`;
  const documentPath = `${basePath}/openapi.json`;
  const documents = new Map<string, PlantResponse>();

  function documentResponse(request: PlantRequest): PlantResponse {
    const serverUrl = `${request.mountPath ?? ''}${basePath}` || '/';
    let response = documents.get(serverUrl);
    if (response === undefined) {
      response = { status: 200, headers: JSON_HEADERS, body: JSON.stringify(createOpenApiDocument(serverUrl)) };
      if (documents.size < MAX_CACHED_DOCUMENTS) documents.set(serverUrl, response);
    }
    return response;
  }

  function report(error: Failure, request: PlantRequest): PlantResponse {
    if (error.cause !== undefined) safely(() => onError(error.cause, { request, kind: 'storage-unavailable' }));
    return errorResponse(error.kind, error.message);
  }

  async function createFromRequest(request: PlantRequest): Promise<PlantResponse> {
    const credential = readBearerCredential(request.header('authorization'));
    if (credential.kind === 'missing') return UNAUTHENTICATED;
    if (credential.kind === 'malformed') return TOKEN_REJECTED;
    // Awaited only when the verifier is async: a sync answer costs no extra turn.
    const verdict = authenticate(credential.token, request);
    if ((typeof verdict === 'boolean' ? verdict : await verdict) !== true) return TOKEN_REJECTED;

    const body = await request.readBody(maxBodyBytes);
    if (!body.ok) return body.reason === 'too-large' ? bodyTooLarge : BODY_ABORTED;
    if (body.bytes.length === 0) return BODY_MISSING;
    if (!isJsonMediaType(request.header('content-type'))) return UNSUPPORTED_MEDIA_TYPE;

    const parsed = parseNewPlant(body.bytes);
    if (!parsed.ok) return report(parsed.error, request);
    const created = await createPlant(store, parsed.value, createOptions);
    if (!created.ok) return report(created.error, request);
    return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(created.value.plant) };
  }

  return function handlePlantRequest(request) {
    // Normalised as Bun's and workerd's URL parsers do, so routes match alike everywhere.
    const path = routePath(request.url);
    if (path !== plantsPath && path !== documentPath) return Promise.resolve(NOT_FOUND);
    if (request.draining === true) return Promise.resolve(SHUTTING_DOWN);
    if (path === documentPath) return Promise.resolve(request.method === 'GET' ? documentResponse(request) : GET_ONLY);
    if (request.method !== 'POST') return Promise.resolve(POST_ONLY);
    // The one place where an unexpected throw becomes an answer.
    return createFromRequest(request).then(undefined, (error: unknown) => {
      safely(() => onError(error, { request, kind: 'internal' }));
      return INTERNAL;
    });
  };
}

function normaliseBasePath(basePath: string): string {
  if (basePath === '' || basePath === '/') return '';
  if (!basePath.startsWith('/') || basePath.includes('?')) {
    throw new TypeError('createPlantHandler: `basePath` must start with "/" and hold no query');
  }
  return basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
}

function safely(action: () => void): void {
  try {
    action();
  } catch {
    // A failing logger must not turn an answer into a crash.
  }
}
