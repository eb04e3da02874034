// Runs anywhere (no runtime API): the `docs` feature (the default export, which features.ts registers) and its public surface, which the core exports.
export { docsFeature as default } from './docs-feature.ts';
export { DOCS_CONTENT_SECURITY_POLICY } from './docs-responses.ts';
export type { DocsPage } from './docs-page.ts';
