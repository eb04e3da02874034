// Runs anywhere (no runtime API): the first step of every request, which answers by its route and method.
import { createFromRequest } from './create-from-request.ts';
import type { Failure } from './domain/failure.ts';
import { errorResponse, JSON_HEADERS, SHUTTING_DOWN } from './error-response.ts';
import type { PlantResponse } from './http-types.ts';
import { createOpenApiDocument } from './openapi-document.ts';
import { answerMetrics } from './answer-metrics.ts';
import { answerAfter, reportFailure, type Outcome, type PlantExchange } from './plant-exchange.ts';
import { DOCUMENT, HEALTHZ, METRICS, NOT_A_FILE, READYZ } from './plant-routes.ts';

const NOT_FOUND: PlantResponse = { ...errorResponse('not-found', 'no such route'), unmatched: true };
const POST_ONLY = errorResponse('method-not-allowed', 'method not allowed; allowed: POST', { allow: 'POST' });
// HEAD is answered wherever GET is (RFC 9110 §9.3.2), so both are allowed there.
const GET_ONLY = errorResponse('method-not-allowed', 'method not allowed; allowed: GET, HEAD', { allow: 'GET, HEAD' });
const NO_SUCH_FILE = errorResponse('not-found', 'no such file of the docs page');
// Probes must see the state of now, never a cached answer.
const NO_STORE = { 'cache-control': 'no-store' };
const ALIVE: PlantResponse = { status: 200, headers: Object.freeze({ ...JSON_HEADERS, ...NO_STORE }), body: '{"status":"ok"}' };
const READY: PlantResponse = { status: 200, headers: ALIVE.headers, body: '{"status":"ready"}' };
// Documents kept for this many distinct mount points; more are built per request.
const MAX_CACHED_DOCUMENTS = 16;

/**
 * Answers a request that is not a CORS preflight, in the order of checks
 * after routing (docs/contract.md): an unknown path, the probes that answer
 * even while draining, draining, the method, then the route's own answer.
 *
 * @example
 * answer(new PlantExchange(settings, request, findRoute(path), requestId, headers, respond), answerRoute);
 */
export function answerRoute(exchange: PlantExchange): Outcome {
  const { route, request } = exchange;
  if (route === undefined) return NOT_FOUND;
  // Alive while draining: a process that finishes its requests must not be restarted for it.
  if (route === HEALTHZ) return isGetOrHead(request.method) ? ALIVE : GET_ONLY;
  if (route === NOT_A_FILE) return NO_SUCH_FILE;
  // Served while draining too: a scrape then sees plant_store_draining 1.
  if (route === METRICS) return isGetOrHead(request.method) ? answerMetrics(exchange) : GET_ONLY;
  if (request.draining === true) return SHUTTING_DOWN;
  if (route.allow === 'POST') return request.method === 'POST' ? createFromRequest(exchange) : POST_ONLY;
  // HEAD gets GET's answer, body included: the HTTP server sends its head
  // alone (node:http, Bun, Deno and workerd all drop a HEAD answer's body),
  // so its Content-Length stays the length GET would send (RFC 9110 §9.3.2).
  if (!isGetOrHead(request.method)) return GET_ONLY;
  if (route === DOCUMENT) return documentResponse(exchange);
  if (route === READYZ) return answerAfter(exchange, exchange.settings.ready!(), readiness);
  return route.response!;
}

/**
 * Answers a CORS preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) on a route the handler serves: 200, or
 * 403 (1102) for an origin not allowed. Only with the `cors` option.
 */
export function answerPreflight(exchange: PlantExchange): Outcome {
  return exchange.settings.cors!.preflight(exchange.request.header('origin')!, exchange.route!.allow);
}

function readiness(exchange: PlantExchange, failure: Failure | undefined): Outcome {
  return failure === undefined ? READY : reportFailure(exchange, failure, NO_STORE);
}

/** The OpenAPI document, with the server URL it is served under; built once per mount point. */
function documentResponse(exchange: PlantExchange): PlantResponse {
  const { settings } = exchange;
  const serverUrl = `${exchange.request.mountPath ?? ''}${settings.basePath}` || '/';
  let response = settings.documents.get(serverUrl);
  if (response === undefined) {
    response = { status: 200, headers: JSON_HEADERS, body: JSON.stringify(createOpenApiDocument(serverUrl, settings.documentedRoutes)) };
    if (settings.documents.size < MAX_CACHED_DOCUMENTS) settings.documents.set(serverUrl, response);
  }
  return response;
}

function isGetOrHead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}
