import type { DocsPage } from '@plant-store/core';
import { createDocsPage } from './create-docs-page.ts';

/**
 * The API reference page with its default title, for the handler's `docs` option.
 *
 * @example
 * const handle = createNodeHandler({ store, authenticate, docs: docsPage }); // GET /docs
 */
export const docsPage: DocsPage = /* @__PURE__ */ createDocsPage();
