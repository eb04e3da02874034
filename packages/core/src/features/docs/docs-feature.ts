// Runs anywhere (no runtime API): the `docs` option: the API reference page at `GET {basePath}/docs` and its files.
import { errorResponse } from '../../exchange/error-response.ts';
import type { Feature } from '../../exchange/feature.ts';
import type { PlantResponse } from '../../exchange/http-types.ts';
import { errorRef } from '../../exchange/openapi-document.ts';
import type { Route } from '../../exchange/plant-exchange.ts';
import type { DocsPage } from './docs-page.ts';
import { createDocsResponses } from './docs-responses.ts';

const NO_SUCH_FILE = errorResponse('not-found', 'no such file of the docs page');
/**
 * A path under `{basePath}/docs/` that names no file of the page: answered alike whatever the method, and, as any
 * path that is no route, before the overload gate (docs/contract.md, "Order of checks", 2).
 */
const NOT_A_FILE: Route = {
  name: 'no-such-file',
  template: '/docs/{file}',
  allow: 'GET',
  answer: () => NO_SUCH_FILE,
  whileDraining: true,
  anyMethod: true,
  pastOverload: true,
};

const DOCS_PATHS = {
  '/docs': {
    get: {
      operationId: 'getDocsPage',
      summary: 'API reference page',
      description:
        'An HTML page that shows this document; it loads its files from `/docs/{file}` and nothing from any other origin. No authentication. 503 while the server shuts down.',
      security: [],
      responses: {
        '200': { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } },
        '503': errorRef(503),
      },
    },
  },
  '/docs/{file}': {
    get: {
      operationId: 'getDocsFile',
      summary: 'A file of the API reference page',
      description: 'No authentication. 404 for a name the page does not have; 503 while the server shuts down.',
      security: [],
      parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The file, with its own content type.', content: { '*/*': { schema: { type: 'string' } } } },
        '404': errorRef(404),
        '503': errorRef(503),
      },
    },
  },
};

/** The handler's `docs` option, as `PlantHandlerOptions` has it. */
export interface DocsOption {
  /**
   * Serves an API reference page at `GET {basePath}/docs` and its files at
   * `GET {basePath}/docs/<name>`, without authentication, e.g. `docsPage`
   * from `@plant-store/docs-page`. Default: none.
   */
  readonly docs?: DocsPage | undefined;
}

/** The `docs` flag of `DocumentedRoutes`. */
export interface DocsRoutes {
  /** `GET /docs` and `GET /docs/{file}` (the handler's `docs` option). */
  readonly docs?: boolean;
}

/** The `docs` option: a {@link DocsPage} served at `/docs`, its files under `/docs/`, each answer built once. */
export const docsFeature: Feature<'docs', DocsOption, DocsRoutes> = {
  option: 'docs',
  document: { paths: DOCS_PATHS },
  resolve(given, { caller }) {
    if (given === undefined) return undefined;
    const { page, files } = createDocsResponses(given as DocsPage, caller);
    const fixed = (name: string, template: string, response: PlantResponse): Route => ({ name, template, allow: 'GET', answer: () => response });
    const fileRoutes = new Map([...files].map(([name, response]) => [name, fixed('docs-file', '/docs/{file}', response)]));
    return {
      routes: [['/docs', fixed('docs-page', '/docs', page)]],
      // The handler owns everything under the prefix: an unknown file is its 404, even when mounted.
      prefix: ['/docs/', (rest) => fileRoutes.get(rest) ?? NOT_A_FILE],
    };
  },
};
