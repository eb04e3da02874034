// Runs anywhere (no runtime API): the first step of every request, which answers by its route and method.
import { errorResponse, SHUTTING_DOWN } from './error-response.ts';
import type { PlantResponse } from './http-types.ts';
import type { Outcome, PlantExchange } from './plant-exchange.ts';

const NOT_FOUND: PlantResponse = { ...errorResponse('not-found', 'no such route'), unmatched: true };
const POST_ONLY = errorResponse('method-not-allowed', 'method not allowed; allowed: POST', { allow: 'POST' });
// HEAD is answered wherever GET is (RFC 9110 §9.3.2), so both are allowed there.
const GET_ONLY = errorResponse('method-not-allowed', 'method not allowed; allowed: GET, HEAD', { allow: 'GET, HEAD' });

/**
 * Answers a request that is not a CORS preflight, in the order of checks
 * after routing (docs/contract.md): an unknown path, the probes that answer
 * even while draining, draining, the method, then the route's own step.
 * HEAD gets GET's answer, body included: the HTTP server sends its head
 * alone (node:http, Bun, Deno and workerd all drop a HEAD answer's body), so
 * its Content-Length stays the length GET would send (RFC 9110 §9.3.2).
 *
 * @example
 * answer(new PlantExchange(settings, request, findRoute(path), requestId, undefined, undefined, respond), answerRoute);
 */
export function answerRoute(exchange: PlantExchange): Outcome {
  const { route, request } = exchange;
  if (route === undefined) return NOT_FOUND;
  if (route.whileDraining !== true && request.draining === true) return SHUTTING_DOWN;
  if (route.anyMethod !== true && !(route.allow === 'POST' ? request.method === 'POST' : isGetOrHead(request.method))) {
    return route.allow === 'POST' ? POST_ONLY : GET_ONLY;
  }
  return route.answer(exchange);
}

function isGetOrHead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}
