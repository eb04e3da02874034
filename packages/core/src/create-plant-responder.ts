// Runs anywhere (no runtime API): the handler over plain data that every adapter calls, its options resolved into the exchange's settings and the features' parts.
import type { FeatureParts } from './exchange/feature.ts';
import { requestHooks } from './exchange/feature.ts';
import { createResponder, type PlantResponder } from './exchange/create-responder.ts';
import { checkOptions, exchangeSettings } from './exchange/exchange-settings.ts';
import { documentRoute, routeFinder } from './exchange/plant-routes.ts';
import FEATURES from './features.ts';
import { createOpenApiDocument, type DocumentedRoutes } from './openapi-document.ts';
import type { PlantHandlerOptions } from './plant-handler-options.ts';

export type { PlantResponder } from './exchange/create-responder.ts';

/**
 * Builds the Plant Store HTTP handler over plain data, answering through a
 * callback: a `PlantRequest` in, a `PlantResponse` handed to
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
  const checked = checkOptions(options, caller);
  const documented: { -readonly [K in keyof DocumentedRoutes]: DocumentedRoutes[K] } = {
    protocolErrors: checked.protocolErrors,
    verifier: checked.authenticate.describes,
  };
  const parts: FeatureParts[] = [];
  for (const feature of FEATURES) {
    const resolved = feature.resolve(options[feature.option], checked);
    if (resolved === undefined) continue;
    parts.push(resolved);
    if (feature.document !== undefined) documented[feature.option as keyof DocumentedRoutes & typeof feature.option] = true;
  }
  const document = documentRoute(checked.basePath, (serverUrl) => createOpenApiDocument(serverUrl, documented));
  const findRoute = routeFinder(
    checked.basePath,
    document,
    parts.flatMap((part) => part.routes ?? []),
    parts.flatMap((part) => (part.prefix === undefined ? [] : [part.prefix])),
  );
  return createResponder(exchangeSettings(checked, findRoute, requestHooks(parts)));
}
