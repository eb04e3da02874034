// Runs anywhere (no runtime API): the paths one handler serves, found from a request's path.
import { createFromRequest } from './create-from-request.ts';
import { JSON_HEADERS } from './error-response.ts';
import type { PlantResponse } from './http-types.ts';
import type { FindRoute, Route } from './plant-exchange.ts';

/** `POST {basePath}/plants`. */
export const PLANTS: Route = { name: 'plants', template: '/plants', allow: 'POST', answer: createFromRequest };

// Documents kept for this many distinct mount points; more are built per request.
const MAX_CACHED_DOCUMENTS = 16;

/**
 * `GET {basePath}/openapi.json`: the document `build` makes for the server
 * URL it is served under (the mount path and the base path), built once per
 * mount point.
 *
 * @example
 * const document = documentRoute('/api', (serverUrl) => createOpenApiDocument(serverUrl));
 */
export function documentRoute(basePath: string, build: (serverUrl: string) => object): Route {
  const documents = new Map<string, PlantResponse>();
  return {
    name: 'document',
    template: '/openapi.json',
    allow: 'GET',
    answer(exchange) {
      const serverUrl = `${exchange.request.mountPath ?? ''}${basePath}` || '/';
      let response = documents.get(serverUrl);
      if (response === undefined) {
        response = { status: 200, headers: JSON_HEADERS, body: JSON.stringify(build(serverUrl)) };
        if (documents.size < MAX_CACHED_DOCUMENTS) documents.set(serverUrl, response);
      }
      return response;
    },
  };
}

/**
 * Builds the route lookup of one handler: the create and the OpenAPI
 * document always, and the routes and path prefixes of its features.
 *
 * @param basePath `''` or a leading `/` without a trailing one.
 * @param routes The features' routes, by path after the base path.
 * @param prefixes The features' prefixes (after the base path, ending in `/`), each with the route of what follows it.
 * @example
 * const findRoute = routeFinder('/api', documentRoute('/api', build), [['/healthz', healthz]], []);
 * findRoute('/api/healthz'); // healthz
 */
export function routeFinder(
  basePath: string,
  document: Route,
  routes: readonly (readonly [path: string, route: Route])[],
  prefixes: readonly (readonly [path: string, find: (rest: string) => Route])[],
): FindRoute {
  const plantsPath = `${basePath}/plants`;
  const documentPath = `${basePath}/openapi.json`;
  const featureRoutes = new Map(routes.map(([path, route]) => [`${basePath}${path}`, route]));
  const owned = prefixes.map(([path, find]) => [`${basePath}${path}`, find] as const);
  const featureRoute = (path: string): Route | undefined => {
    const route = featureRoutes.get(path);
    if (route !== undefined) return route;
    // A feature owns everything under its prefix: an unknown file is its 404, even when mounted.
    // Indexed: no iterator per request outside the exact routes (404s, the docs files).
    for (let i = 0; i < owned.length; i++) {
      const [prefix, find] = owned[i]!;
      if (path.startsWith(prefix)) return find(path.slice(prefix.length));
    }
    return undefined;
  };
  // Without a feature's route, a path that is neither route costs no lookup.
  if (featureRoutes.size === 0 && owned.length === 0) return (path) => (path === plantsPath ? PLANTS : path === documentPath ? document : undefined);
  return (path) => (path === plantsPath ? PLANTS : path === documentPath ? document : featureRoute(path));
}
