export { createDocsPage } from './create-docs-page.ts';
export { docsPage } from './docs-page.ts';

export type { DocsPageOptions } from './create-docs-page.ts';
export type { DocsPage } from '@plant-store/core';
