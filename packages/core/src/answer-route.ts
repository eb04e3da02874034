// Runs anywhere (no runtime API): the first step of every request, which answers by its route and method.
import { createFromRequest } from './create-from-request.ts';
import type { Failure } from './domain/failure.ts';
import { errorResponse, JSON_HEADERS, SHUTTING_DOWN } from './error-response.ts';
import type { PlantResponse } from './http-types.ts';
import { createOpenApiDocument } from './openapi-document.ts';
import { answerMetrics } from './answer-metrics.ts';
import { answerAfter, reportFailure, type Outcome, type PlantExchange } from './plant-exchange.ts';
import type { Route } from './plant-routes.ts';

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
  if (route.whileDraining !== true && request.draining === true) return SHUTTING_DOWN;
  if (route.anyMethod !== true && !(route.allow === 'POST' ? request.method === 'POST' : isGetOrHead(request.method))) {
    return route.allow === 'POST' ? POST_ONLY : GET_ONLY;
  }
  return ANSWERS[route.name](exchange);
}

// The step of each route, by name, once its method is allowed. HEAD gets GET's answer, body
// included: the HTTP server sends its head alone (node:http, Bun, Deno and workerd all drop a
// HEAD answer's body), so its Content-Length stays the length GET would send (RFC 9110 §9.3.2).
const ANSWERS: Readonly<Record<Route['name'], (exchange: PlantExchange) => Outcome>> = {
  plants: createFromRequest,
  document: documentResponse,
  healthz: () => ALIVE,
  readyz: (exchange) => answerAfter(exchange, exchange.settings.ready!(), readiness),
  metrics: answerMetrics,
  'docs-page': fixedResponse,
  'docs-file': fixedResponse,
  'no-such-file': () => NO_SUCH_FILE,
};

export function answerPreflight(exchange: PlantExchange): Outcome {
  return exchange.settings.cors!.preflight(exchange.request.header('origin')!, exchange.route!.allow);
}

/** The answer of a route whose answer never changes (the docs page and its files), which it carries. */
function fixedResponse(exchange: PlantExchange): PlantResponse {
  return exchange.route!.response!;
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
