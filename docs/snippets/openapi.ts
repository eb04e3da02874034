import { createOpenApiDocument } from '@plant-store/core';

// The document a server mounted at https://example.com/api serves at /api/openapi.json.
const document = createOpenApiDocument('https://example.com/api');
console.log(JSON.stringify(document, null, 2));
