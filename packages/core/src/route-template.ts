// Runs anywhere (no runtime API): a request's route and method as the OpenTelemetry HTTP semantic conventions name them.
import type { Route } from './plant-routes.ts';

/** Each route's template after the base path, as `http.route` gives it; a docs file is `{file}`. */
export const ROUTE_TEMPLATES: Readonly<Record<Route['name'], string>> = {
  plants: '/plants',
  document: '/openapi.json',
  healthz: '/healthz',
  readyz: '/readyz',
  metrics: '/metrics',
  'docs-page': '/docs',
  'docs-file': '/docs/{file}',
  'no-such-file': '/docs/{file}',
};

const KNOWN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/**
 * `http.request.method`: the method when it is one RFC 9110 or RFC 5789
 * defines, else `_OTHER`, so that clients cannot make series or span names
 * without end.
 *
 * @example
 * methodLabel('POST'); // 'POST'
 * methodLabel('BREW'); // '_OTHER'
 */
export function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}
