// Runs anywhere (no runtime API): the handler over plain data that every adapter calls, from routing to the answer.
import { readBearerCredential, type Authenticate } from './authenticate.ts';
import { createCorsPolicy, type CorsOptions, type CorsPolicy } from './cors-policy.ts';
import { startCreatePlant, type Created } from './create-plant.ts';
import { createReadinessCheck } from './create-readiness-check.ts';
import type { DocsPage } from './docs-page.ts';
import { createDocsResponses } from './docs-responses.ts';
import { errorResponse, JSON_HEADERS, PROTOCOL_ERRORS, SHUTTING_DOWN, type ProtocolErrorKind } from './error-response.ts';
import type { Failure, Result } from './failure.ts';
import type { BodyResult, PlantRequest, PlantResponse } from './http-types.ts';
import type { PendingBody } from './pending-body.ts';
import { isThenable, type Thenable } from './is-thenable.ts';
import { isJsonMediaType } from './is-json-media-type.ts';
import { logError } from './log-error.ts';
import { createOpenApiDocument } from './openapi-document.ts';
import { parseNewPlant } from './parse-new-plant.ts';
import type { PlantStore } from './plant-store.ts';
import { requestIdOf } from './request-id.ts';
import { routePath } from './route-path.ts';

/** Where an unexpected error was caught, for logs. */
export interface ErrorContext {
  readonly request: PlantRequest;
  /** The failure the client was answered with (`storage-full` when the store said what filled up). */
  readonly kind: 'internal' | 'storage-unavailable' | 'storage-full';
  /** The request's id, sent back as `x-request-id`; only with the `requestId` option. */
  readonly requestId?: string;
}

/** Options of `createPlantHandler` and {@link createPlantResponder}. */
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
}

/**
 * Receives the answer to one request: called exactly once, at once when the
 * answer is at hand, else when it is. It must not throw.
 */
export type Respond = (response: PlantResponse) => void;

/** A handler over plain data that answers through a callback; see {@link createPlantResponder}. */
export type PlantResponder = (request: PlantRequest, respond: Respond) => void;

/** Default {@link PlantHandlerOptions.maxBodyBytes}: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Default {@link PlantHandlerOptions.storeTimeoutMs}: 5 s. */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

const NOT_FOUND: PlantResponse = { ...errorResponse('not-found', 'no such route'), unmatched: true };
const UNAUTHENTICATED = errorResponse('unauthenticated', 'authorization: expected "Bearer <token>"');
const TOKEN_REJECTED = errorResponse('token-rejected', 'authorization: the token was rejected');
const POST_ONLY = errorResponse('method-not-allowed', 'method not allowed; allowed: POST', { allow: 'POST' });
// HEAD is answered wherever GET is (RFC 9110 §9.3.2), so both are allowed there.
const GET_ONLY = errorResponse('method-not-allowed', 'method not allowed; allowed: GET, HEAD', { allow: 'GET, HEAD' });
// Documents kept for this many distinct mount points; more are built per request.
const MAX_CACHED_DOCUMENTS = 16;
const BODY_MISSING = errorResponse('body-missing', 'body: required; expected a JSON NewPlant object');
const BODY_ABORTED = errorResponse('body-missing', 'body: the request body was not received completely');
const UNSUPPORTED_MEDIA_TYPE = errorResponse('unsupported-media-type', 'content-type: expected application/json (UTF-8)');
const INTERNAL = errorResponse('internal', 'internal error');
// Probes must see the state of now, never a cached answer.
const NO_STORE = { 'cache-control': 'no-store' };
const ALIVE: PlantResponse = { status: 200, headers: Object.freeze({ ...JSON_HEADERS, ...NO_STORE }), body: '{"status":"ok"}' };
const READY: PlantResponse = { status: 200, headers: ALIVE.headers, body: '{"status":"ready"}' };
const NO_SUCH_FILE = errorResponse('not-found', 'no such file of the docs page');

/** A path the handler serves, and the method it allows there (`GET` with its HEAD). */
interface Route {
  readonly name: 'plants' | 'document' | 'healthz' | 'readyz' | 'docs-file' | 'no-such-file';
  readonly allow: 'GET' | 'POST';
  /** The answer to GET, for a route whose answer never changes (the docs page and its files). */
  readonly response?: PlantResponse;
}

const PLANTS: Route = { name: 'plants', allow: 'POST' };
const DOCUMENT: Route = { name: 'document', allow: 'GET' };
const HEALTHZ: Route = { name: 'healthz', allow: 'GET' };
const READYZ: Route = { name: 'readyz', allow: 'GET' };
const NOT_A_FILE: Route = { name: 'no-such-file', allow: 'GET' };

/**
 * Builds the Plant Store HTTP handler over plain data, answering through a
 * callback: a {@link PlantRequest} in, a {@link PlantResponse} handed to
 * `respond`, at once when everything it needs is at hand (a synchronous
 * verifier, a body already read, the memory store), else when it is. This
 * is `createPlantHandler` for adapters that write the answer
 * themselves: no promise stands between the request and the answer unless
 * something is waited for. It takes the same options and serves the same
 * routes, in the order of docs/contract.md ("Order of checks"), and it never
 * throws: unexpected errors go to `onError` and the client gets a bare 500.
 *
 * @throws TypeError at construction for invalid options.
 * @example
 * const respondTo = createPlantResponder({
 *   store: createMemoryStore(),
 *   authenticate: staticTokens(['s3cret-token']),
 * });
 * respondTo(request, (response) => write(response)); // { status, headers, body }
 */
export function createPlantResponder(options: PlantHandlerOptions): PlantResponder {
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
  for (const name of ['requestId', 'health'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') throw new TypeError(`createPlantHandler: \`${name}\` must be a boolean`);
  }
  const cors: CorsPolicy | undefined = options.cors === undefined ? undefined : createCorsPolicy(options.cors);
  const requestIds = options.requestId === true;
  const health = options.health === true;
  const docs = options.docs === undefined ? undefined : createDocsResponses(options.docs);
  const ready = health ? createReadinessCheck(store, createOptions.timeoutMs) : undefined;
  const protocolErrors = protocolErrorsOption(options.protocolErrors);

  const bodyTooLarge = errorResponse('body-too-large', `body: larger than the limit of ${maxBodyBytes} bytes`);
  const plantsPath = `${basePath}/plants`;
  const documentPath = `${basePath}/openapi.json`;
  const documents = new Map<string, PlantResponse>();
  const documentedRoutes = { health, docs: docs !== undefined, cors: cors !== undefined, protocolErrors };

  // The routes of the optional features, by exact path; the docs files under one prefix.
  const featureRoutes = new Map<string, Route>();
  if (health) featureRoutes.set(`${basePath}/healthz`, HEALTHZ).set(`${basePath}/readyz`, READYZ);
  if (docs !== undefined) featureRoutes.set(`${basePath}/docs`, { name: 'docs-file', allow: 'GET', response: docs.page });
  const docsPrefix = `${basePath}/docs/`;
  const docsFiles = new Map([...(docs?.files ?? [])].map(([name, response]) => [name, { name: 'docs-file', allow: 'GET', response } satisfies Route]));
  const featureRoute = (path: string): Route | undefined => {
    const route = featureRoutes.get(path);
    if (route !== undefined || docs === undefined || !path.startsWith(docsPrefix)) return route;
    // The handler owns everything under the docs prefix: an unknown file is its 404, even when mounted.
    return docsFiles.get(path.slice(docsPrefix.length)) ?? NOT_A_FILE;
  };
  // Without health or docs, a path that is neither route costs no lookup.
  const anyFeature = featureRoutes.size > 0;

  function documentResponse(request: PlantRequest): PlantResponse {
    const serverUrl = `${request.mountPath ?? ''}${basePath}` || '/';
    let response = documents.get(serverUrl);
    if (response === undefined) {
      response = { status: 200, headers: JSON_HEADERS, body: JSON.stringify(createOpenApiDocument(serverUrl, documentedRoutes)) };
      if (documents.size < MAX_CACHED_DOCUMENTS) documents.set(serverUrl, response);
    }
    return response;
  }

  function report(error: Failure, request: PlantRequest, requestId: string | undefined, headers?: Readonly<Record<string, string>>): PlantResponse {
    if (error.cause !== undefined) {
      const kind = error.kind === 'storage-full' ? 'storage-full' : 'storage-unavailable';
      safely(() => onError(error.cause, context(request, kind, requestId)));
    }
    return errorResponse(error.kind, error.message, headers);
  }

  // The request path continues at once with whatever is already at hand (a
  // synchronous verifier, a body already read, the memory store's answer), so
  // a create takes no more turns of the event loop than its inputs need. Each
  // step returns the answer when it has it; one that must wait returns
  // nothing and hands the answer to `done` later.
  function createFromRequest(request: PlantRequest, requestId: string | undefined, done: Respond): PlantResponse | undefined {
    const credential = readBearerCredential(request.header('authorization'));
    if (credential.kind === 'missing') return UNAUTHENTICATED;
    if (credential.kind === 'malformed') return TOKEN_REJECTED;
    const verdict = authenticate(credential.token, request);
    // Only `true` lets a request in, whatever else a verifier returns or resolves to.
    if (!isThenable(verdict)) return verdict === true ? readAndCreate(request, requestId, done) : TOKEN_REJECTED;
    return after(verdict, (accepted) => (accepted === true ? readAndCreate(request, requestId, done) : TOKEN_REJECTED), request, requestId, done);
  }

  function readAndCreate(request: PlantRequest, requestId: string | undefined, done: Respond): PlantResponse | undefined {
    const body = request.readBody(maxBodyBytes);
    if (!isThenable(body)) return createFromBody(request, body, requestId, done);
    return after(body, (read) => createFromBody(request, read, requestId, done), request, requestId, done);
  }

  function createFromBody(request: PlantRequest, body: BodyResult, requestId: string | undefined, done: Respond): PlantResponse | undefined {
    if (!body.ok) return body.reason === 'too-large' ? bodyTooLarge : BODY_ABORTED;
    if (body.bytes.length === 0) return BODY_MISSING;
    if (!isJsonMediaType(request.header('content-type'))) return UNSUPPORTED_MEDIA_TYPE;

    const parsed = parseNewPlant(body.bytes);
    if (!parsed.ok) return report(parsed.error, request, requestId);
    const created = startCreatePlant(store, parsed.value, createOptions);
    if (!isThenable(created)) return createdResponse(created, request, requestId);
    return after(created, (result) => createdResponse(result, request, requestId), request, requestId, done);
  }

  function createdResponse(created: Result<Created>, request: PlantRequest, requestId: string | undefined): PlantResponse {
    if (!created.ok) return report(created.error, request, requestId);
    return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(created.value.plant) };
  }

  /**
   * Goes on with `step` once `waited` settles; its answer, or the 500 that a
   * throw or rejection becomes (a store resolving to no InsertResult
   * included), goes to `done`, unless the step waits again. `waited` is asked
   * directly rather than adopted by a promise, so a body reading that calls
   * back as the body arrives (the adapters' {@link PendingBody}) costs no
   * microtask turn; whatever it calls back after the first time, or throws
   * after calling back, is ignored, so the request is answered once.
   */
  function after<T>(
    waited: Thenable<T>,
    step: (value: T) => PlantResponse | undefined,
    request: PlantRequest,
    requestId: string | undefined,
    done: Respond,
  ): undefined {
    let heard = false;
    const onError = (error: unknown) => {
      if (heard) return;
      heard = true;
      deliver(done, internal(error, request, requestId), request, requestId);
    };
    try {
      waited.then((value) => {
        if (heard) return;
        heard = true;
        let response: PlantResponse | undefined;
        try {
          response = step(value);
        } catch (error) {
          response = internal(error, request, requestId);
        }
        if (response !== undefined) deliver(done, response, request, requestId);
      }, onError);
    } catch (error) {
      onError(error);
    }
    return undefined;
  }

  /**
   * Hands a waited answer to `done`, which must not throw; if it does, the
   * error goes to `onError` rather than into the runtime callback that ended
   * the wait (Node's 'end' listener, say), where it would crash the process.
   */
  function deliver(done: Respond, response: PlantResponse, request: PlantRequest, requestId: string | undefined): void {
    try {
      done(response);
    } catch (error) {
      safely(() => onError(error, context(request, 'internal', requestId)));
    }
  }

  function readiness(request: PlantRequest, requestId: string | undefined, done: Respond): undefined {
    return after(ready!(), (failure) => (failure === undefined ? READY : report(failure, request, requestId, NO_STORE)), request, requestId, done);
  }

  /** The answer on a known route, in the order of checks after routing and preflights. */
  function answer(request: PlantRequest, route: Route, requestId: string | undefined, done: Respond): PlantResponse | undefined {
    // Alive while draining: a process that finishes its requests must not be restarted for it.
    if (route === HEALTHZ) return isGetOrHead(request.method) ? ALIVE : GET_ONLY;
    if (route === NOT_A_FILE) return NO_SUCH_FILE;
    if (request.draining === true) return SHUTTING_DOWN;
    if (route.allow === 'GET') {
      // HEAD gets GET's answer, body included: the HTTP server sends its head
      // alone (node:http, Bun, Deno and workerd all drop a HEAD answer's body),
      // so its Content-Length stays the length GET would send (RFC 9110 §9.3.2).
      if (!isGetOrHead(request.method)) return GET_ONLY;
      if (route === DOCUMENT) return documentResponse(request);
      if (route === READYZ) return readiness(request, requestId, done);
      return route.response!;
    }
    if (request.method !== 'POST') return POST_ONLY;
    try {
      return createFromRequest(request, requestId, done);
    } catch (error) {
      return internal(error, request, requestId);
    }
  }

  /** An unexpected throw or rejection, reported, as the client's bare 500. */
  function internal(error: unknown, request: PlantRequest, requestId: string | undefined): PlantResponse {
    safely(() => onError(error, context(request, 'internal', requestId)));
    return INTERNAL;
  }

  const decorated = cors !== undefined || requestIds;
  return function respondToPlantRequest(request, respond) {
    // Normalised as Bun's and workerd's URL parsers do, so routes match alike everywhere.
    const path = routePath(request.url);
    const route = path === plantsPath ? PLANTS : path === documentPath ? DOCUMENT : anyFeature ? featureRoute(path) : undefined;
    if (!decorated) {
      const answered = route === undefined ? NOT_FOUND : answer(request, route, undefined, respond);
      if (answered !== undefined) respond(answered);
      return;
    }
    // The headers of CORS and request ids, and CORS preflights.
    const requestId = requestIds ? requestIdOf(request.header('x-request-id')) : undefined;
    const origin = cors === undefined ? undefined : request.header('origin');
    if (
      cors !== undefined &&
      route !== undefined &&
      route !== NOT_A_FILE &&
      origin !== undefined &&
      request.method === 'OPTIONS' &&
      request.header('access-control-request-method') !== undefined
    ) {
      respond(withHeaders(cors.preflight(origin, route.allow), undefined, requestId));
      return;
    }
    const corsHeaders = cors?.responseHeaders(origin);
    if (route === undefined) {
      respond(withHeaders(NOT_FOUND, corsHeaders, requestId));
      return;
    }
    // A waited answer gets the headers on its way out, in the same step.
    const answered = answer(request, route, requestId, (response) => respond(withHeaders(response, corsHeaders, requestId)));
    if (answered !== undefined) respond(withHeaders(answered, corsHeaders, requestId));
  };
}

function context(request: PlantRequest, kind: ErrorContext['kind'], requestId: string | undefined): ErrorContext {
  return requestId === undefined ? { request, kind } : { request, kind, requestId };
}

/**
 * `response` with `extra` headers and an `x-request-id`, in a new headers
 * object: the shared answers are never changed, and without the features
 * they are sent as they are.
 */
function withHeaders(response: PlantResponse, extra: Readonly<Record<string, string>> | undefined, requestId: string | undefined): PlantResponse {
  if (extra === undefined && requestId === undefined) return response;
  // Copied by loops and a literal rather than object spread, which costs
  // Node 20 twenty times as much on every request.
  const headers: Record<string, string> = {};
  const own = response.headers;
  for (const name in own) headers[name] = own[name]!;
  if (extra !== undefined) for (const name in extra) headers[name] = extra[name]!;
  if (requestId !== undefined) headers['x-request-id'] = requestId;
  const { status, body } = response;
  return response.unmatched === true ? { status, headers, body, unmatched: true } : { status, headers, body };
}

function isGetOrHead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

function protocolErrorsOption(given: unknown): readonly ProtocolErrorKind[] {
  if (given === undefined) return [];
  if (!Array.isArray(given) || !given.every((kind) => typeof kind === 'string' && Object.hasOwn(PROTOCOL_ERRORS, kind))) {
    const kinds = Object.keys(PROTOCOL_ERRORS).map((kind) => JSON.stringify(kind));
    throw new TypeError(`createPlantHandler: \`protocolErrors\` must be a list of ${kinds.join(', ')}`);
  }
  return Object.freeze([...new Set(given as ProtocolErrorKind[])]);
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
