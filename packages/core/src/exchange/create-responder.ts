// Runs anywhere (no runtime API): what one handler does with each request, from routing to the answer, given its settings.
import { answerRoute } from './answer-route.ts';
import { isWatch, joinWatches } from './feature.ts';
import type { PlantRequest, PlantResponse } from './http-types.ts';
import { answer, PlantExchange, type ExchangeSettings, type FindRoute, type Outcome, type Respond, type Route, type Watch } from './plant-exchange.ts';
import { requestIdOf } from './request-id.ts';
import { routePath } from './route-path.ts';

/** A handler over plain data that answers through a callback; see `createPlantResponder`. */
export type PlantResponder = (request: PlantRequest, respond: Respond) => void;

/**
 * The responder of one handler: each request routed (its path normalised as
 * Bun's and workerd's URL parsers do, so routes match alike everywhere),
 * given its id, met by the enabled features' per-request parts, then answered
 * by its route's steps. Without such parts, a request meets none of them.
 *
 * @example
 * const respondTo = createResponder(exchangeSettings(checked, findRoute, undefined));
 * respondTo(request, (response) => write(response));
 */
export function createResponder(settings: ExchangeSettings): PlantResponder {
  const { requestIds, hooks } = settings;
  const routeOf = lastRouteRemembered(settings.findRoute);
  if (hooks === undefined) {
    return function respondToPlantRequest(request, respond) {
      const route = routeOf(request.url);
      const requestId = requestIds ? requestIdOf(request.header('x-request-id')) : undefined;
      answer(new PlantExchange(settings, request, route, requestId, undefined, undefined, respond), answerRoute);
    };
  }
  const { watch, preflight, headers, admit } = hooks;
  if (watch.length === 1 && preflight.length === 0 && headers.length === 0 && admit.length === 0) {
    // One watching feature and nothing else (metrics alone, or a tracer alone): no loop to run.
    const begin = watch[0]!;
    return function respondToPlantRequest(request, respond) {
      const route = routeOf(request.url);
      const requestId = requestIds ? requestIdOf(request.header('x-request-id')) : undefined;
      answer(new PlantExchange(settings, request, route, requestId, undefined, begin(request, route, requestId), respond), answerRoute);
    };
  }
  return function respondToPlantRequest(request, respond) {
    const route = routeOf(request.url);
    const requestId = requestIds ? requestIdOf(request.header('x-request-id')) : undefined;
    let watching: Watch | undefined;
    for (let i = 0; i < watch.length; i++) watching = joinWatches(watching, watch[i]!(request, route, requestId));
    let first: ((exchange: PlantExchange) => Outcome) | PlantResponse = answerRoute;
    // A CORS preflight carries its own headers; every other answer those the features add.
    let added: Readonly<Record<string, string>> | undefined;
    for (let i = 0; i < preflight.length; i++) {
      const response = preflight[i]!(request, route);
      if (response !== undefined) {
        first = response;
        break;
      }
    }
    if (first === answerRoute) for (let i = 0; i < headers.length; i++) added = withAdded(added, headers[i]!(request));
    // docs/contract.md, "Overload and rate limits": a refusal comes before the route's own answer, a preflight's too.
    for (let i = 0; i < admit.length; i++) {
      const verdict = admit[i]!(request, route);
      if (verdict === undefined) continue;
      if (isWatch(verdict)) watching = joinWatches(watching, verdict);
      else {
        first = verdict;
        break;
      }
    }
    answer(new PlantExchange(settings, request, route, requestId, added, watching, respond), first);
  };
}

/** The headers of one feature beside those of another, if any. */
/**
 * The route of a request target, the last target's remembered: a handler's
 * requests mostly come for one target (`POST /plants`), which then costs one
 * comparison of strings instead of a scan for dot segments and a lookup. The
 * route depends on the target alone (routePath and the route finder keep no
 * state), so remembering it changes no answer.
 */
function lastRouteRemembered(findRoute: FindRoute): (target: string) => Route | undefined {
  let lastTarget: string | undefined;
  let lastRoute: Route | undefined;
  return (target) => {
    if (target === lastTarget) return lastRoute;
    const route = findRoute(routePath(target));
    lastTarget = target;
    lastRoute = route;
    return route;
  };
}

function withAdded(
  added: Readonly<Record<string, string>> | undefined,
  more: Readonly<Record<string, string>> | undefined,
): Readonly<Record<string, string>> | undefined {
  return added === undefined ? more : more === undefined ? added : { ...added, ...more };
}
