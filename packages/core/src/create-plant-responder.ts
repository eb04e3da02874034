// Runs anywhere (no runtime API): the handler over plain data that every adapter calls, from routing to the answer.
import { answerPreflight, answerRoute } from './answer-route.ts';
import type { PlantRequest } from './http-types.ts';
import { answer, PlantExchange, type Outcome, type Respond } from './plant-exchange.ts';
import type { PlantHandlerOptions } from './plant-handler-options.ts';
import { requestIdOf } from './request-id.ts';
import { responderSettings } from './responder-settings.ts';
import { routePath } from './route-path.ts';

/** A handler over plain data that answers through a callback; see {@link createPlantResponder}. */
export type PlantResponder = (request: PlantRequest, respond: Respond) => void;

/**
 * Builds the Plant Store HTTP handler over plain data, answering through a
 * callback: a {@link PlantRequest} in, a `PlantResponse` handed to
 * `respond`, at once when everything it needs is at hand (a synchronous
 * verifier, a body already read, the memory store), else when it is. This
 * is `createPlantHandler` for adapters that write the answer
 * themselves: no promise stands between the request and the answer unless
 * something is waited for. It takes the same options and serves the same
 * routes, in the order of docs/contract.md ("Order of checks"), and it never
 * throws: unexpected errors go to `onError` and the client gets a bare 500.
 *
 * @param caller The function the user called, which option errors name: an
 *   adapter passes its own factory's name. Default `createPlantResponder`.
 * @throws TypeError at construction for invalid options.
 * @example
 * const respondTo = createPlantResponder({
 *   store: createMemoryStore(),
 *   authenticate: staticTokens(['s3cret-token']),
 * });
 * respondTo(request, (response) => write(response)); // { status, headers, body }
 */
export function createPlantResponder(options: PlantHandlerOptions, caller = 'createPlantResponder'): PlantResponder {
  const settings = responderSettings(options, caller);
  const { cors, requestIds, findRoute, overload } = settings;
  return function respondToPlantRequest(request, respond) {
    // Normalised as Bun's and workerd's URL parsers do, so routes match alike everywhere.
    const route = findRoute(routePath(request.url));
    const requestId = requestIds ? requestIdOf(request.header('x-request-id')) : undefined;
    const origin = cors === undefined ? undefined : request.header('origin');
    // A CORS preflight on a route served; it carries its own CORS headers, every other answer those of its origin.
    const preflight =
      origin !== undefined &&
      route !== undefined &&
      route.anyMethod !== true &&
      request.method === 'OPTIONS' &&
      request.header('access-control-request-method') !== undefined;
    const headers = preflight ? undefined : cors?.responseHeaders(origin);
    let first = preflight ? answerPreflight : answerRoute;
    // docs/contract.md, "Overload and rate limits": every route the handler serves but /healthz, which
    // must stay fast and 200, and /metrics, which must show the overload; not while draining, whose
    // 503 closes the connection.
    let admitted = false;
    if (overload !== undefined && route !== undefined && route.pastOverload !== true && request.draining !== true) {
      if (overload.enter() === undefined) admitted = true;
      else first = refuseOverloaded;
    }
    answer(new PlantExchange(settings, request, route, requestId, headers, respond, admitted), first);
  };
}

function refuseOverloaded(exchange: PlantExchange): Outcome {
  return exchange.settings.overload!.refusal;
}
