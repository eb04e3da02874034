// Ships the OpenAPI document as a static file beside the code that serves it,
// generated from the built package so that the two are always the same.
import { writeFileSync } from 'node:fs';
import { createOpenApiDocument } from '../dist/index.js';

writeFileSync(new URL('../dist/openapi.json', import.meta.url), `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
