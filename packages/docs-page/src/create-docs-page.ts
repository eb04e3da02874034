/// <reference path="./raw-text.d.ts" />
import type { DocsPage } from '@plant-store/core';
import notice from '../NOTICE?raw';
import favicon from './assets/favicon.svg?raw';
import init from './assets/init.js?raw';
import swaggerUiBundle from 'swagger-ui-dist/swagger-ui-bundle.js?raw';
import swaggerUiBundleLicense from 'swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt?raw';
import swaggerUiCss from 'swagger-ui-dist/swagger-ui.css?raw';

/** Options of {@link createDocsPage}. */
export interface DocsPageOptions {
  /** The page's title, shown in the browser's tab. Default `'OpenAPI Plant Store'`, the document's title. */
  readonly title?: string;
}

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

function file(contentType: string, body: string): DocsPage['files'][string] {
  return Object.freeze({ contentType, body });
}

// One set of files for every page: they do not depend on the options.
const files: DocsPage['files'] = Object.freeze({
  'swagger-ui-bundle.js': file(JAVASCRIPT, swaggerUiBundle),
  'swagger-ui.css': file('text/css; charset=utf-8', swaggerUiCss),
  // The initialiser is a file of its own: the page's Content-Security-Policy allows no inline script.
  'init.js': file(JAVASCRIPT, init),
  'favicon.svg': file('image/svg+xml', favicon),
  // Named as the bundle's first line names it.
  'swagger-ui-bundle.js.LICENSE.txt': file(TEXT, swaggerUiBundleLicense),
  NOTICE: file(TEXT, notice),
});

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/**
 * Builds an API reference page for the handler's `docs` option: Swagger UI over
 * the service's own `openapi.json`, with "Try it out" to create a plant with a
 * bearer token. Everything it loads comes from the service itself (no CDN, no
 * web fonts, no validator, no telemetry) and it needs no inline script, so it
 * runs under `script-src 'self'; connect-src 'self'`.
 *
 * @throws TypeError when `title` is given and is not a string.
 * @example
 * const handle = createNodeHandler({ store, authenticate, docs: createDocsPage({ title: 'Plants API' }) });
 */
export function createDocsPage(options: DocsPageOptions = {}): DocsPage {
  const title = options.title ?? 'OpenAPI Plant Store';
  if (typeof title !== 'string') throw new TypeError('createDocsPage: `title` must be a string');
  // Served at {base}/docs, so `docs/…` is {base}/docs/… and `openapi.json` (in init.js) is {base}/openapi.json.
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}</title>
    <link rel="icon" href="docs/favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="docs/swagger-ui.css">
    <script src="docs/swagger-ui-bundle.js" defer></script>
    <script src="docs/init.js" defer></script>
  </head>
  <body>
    <div id="swagger-ui"></div>
  </body>
</html>
`;
  return Object.freeze({ html, files });
}
