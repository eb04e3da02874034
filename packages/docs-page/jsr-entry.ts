// The JSR entry of the docs page, read by Deno (and JSR's npm layer) in place of
// `src/index.ts`: the page's sources import Swagger UI's files as `?raw` text, which
// only the build (tsup.config.ts) can embed, so JSR gets the built module and its
// declarations. Publish after `build`.
// @ts-types="./dist/index.d.ts"
export { createDocsPage, docsPage } from './dist/index.js';
export type { DocsPage, DocsPageOptions } from './dist/index.d.ts';
