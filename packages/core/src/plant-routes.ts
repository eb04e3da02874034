// Runs anywhere (no runtime API): the paths one handler serves, found from a request's path.
import type { DocsResponses } from './docs-responses.ts';
import type { PlantResponse } from './http-types.ts';

/** A path the handler serves, the method it allows there (`GET` with its HEAD), and how it is answered. */
export interface Route {
  /** Which step answers it (answer-route.ts) and its template in metrics and spans. */
  readonly name: 'plants' | 'document' | 'healthz' | 'readyz' | 'metrics' | 'docs-page' | 'docs-file' | 'no-such-file';
  readonly allow: 'GET' | 'POST';
  /** The answer to GET, for a route whose answer never changes (the docs page and its files). */
  readonly response?: PlantResponse;
  /** Answered while the server drains: a process finishing its requests is still alive, and a scrape sees it drain. */
  readonly whileDraining?: true;
  /** Answered alike whatever the method, and so with no CORS preflight of its own (a docs file that does not exist). */
  readonly anyMethod?: true;
  /** Never refused as overloaded: a busy process must still answer its probes and its scrapes. */
  readonly pastOverload?: true;
}

/** `POST {basePath}/plants`. */
export const PLANTS: Route = { name: 'plants', allow: 'POST' };
/** `GET {basePath}/openapi.json`. */
export const DOCUMENT: Route = { name: 'document', allow: 'GET' };
/** `GET {basePath}/healthz`, with the `health` option. */
export const HEALTHZ: Route = { name: 'healthz', allow: 'GET', whileDraining: true, pastOverload: true };
/** `GET {basePath}/readyz`, with the `health` option. */
export const READYZ: Route = { name: 'readyz', allow: 'GET' };
/** `GET {basePath}/metrics`, with the `metrics` option. */
export const METRICS: Route = { name: 'metrics', allow: 'GET', whileDraining: true, pastOverload: true };
/** A path under `{basePath}/docs/` that names no file of the docs page. */
export const NOT_A_FILE: Route = { name: 'no-such-file', allow: 'GET', whileDraining: true, anyMethod: true };

/** The route of a normalised request path, or undefined for a path the handler does not serve. */
export type FindRoute = (path: string) => Route | undefined;

/**
 * Builds the route lookup of one handler: the create and the OpenAPI
 * document always, the health probes, the docs page and the metrics when
 * they are on.
 *
 * @param basePath `''` or a leading `/` without a trailing one.
 * @example
 * const findRoute = routeFinder('/api', true, undefined);
 * findRoute('/api/healthz'); // HEALTHZ
 */
export function routeFinder(basePath: string, health: boolean, docs: DocsResponses | undefined, metrics = false): FindRoute {
  const plantsPath = `${basePath}/plants`;
  const documentPath = `${basePath}/openapi.json`;
  // The routes of the optional features, by exact path; the docs files under one prefix.
  const featureRoutes = new Map<string, Route>();
  if (health) featureRoutes.set(`${basePath}/healthz`, HEALTHZ).set(`${basePath}/readyz`, READYZ);
  if (metrics) featureRoutes.set(`${basePath}/metrics`, METRICS);
  if (docs !== undefined) featureRoutes.set(`${basePath}/docs`, { name: 'docs-page', allow: 'GET', response: docs.page });
  const docsPrefix = `${basePath}/docs/`;
  const docsFiles = new Map([...(docs?.files ?? [])].map(([name, response]) => [name, { name: 'docs-file', allow: 'GET', response } satisfies Route]));
  const featureRoute = (path: string): Route | undefined => {
    const route = featureRoutes.get(path);
    if (route !== undefined || docs === undefined || !path.startsWith(docsPrefix)) return route;
    // The handler owns everything under the docs prefix: an unknown file is its 404, even when mounted.
    return docsFiles.get(path.slice(docsPrefix.length)) ?? NOT_A_FILE;
  };
  // Without health, docs or metrics, a path that is neither route costs no lookup.
  if (featureRoutes.size === 0) return (path) => (path === plantsPath ? PLANTS : path === documentPath ? DOCUMENT : undefined);
  return (path) => (path === plantsPath ? PLANTS : path === documentPath ? DOCUMENT : featureRoute(path));
}
