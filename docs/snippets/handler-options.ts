import { createPlantHandler, staticTokens, type ErrorContext } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';

// createNodeHandler, createFetchHandler and createNodeServerAdapter take the same options.
const handle = createPlantHandler({
  store: createMemoryStore(), // required
  authenticate: staticTokens(['s3cret-token', 'second-token']), // required
  basePath: '/v1', // serves POST /v1/plants and GET /v1/openapi.json
  maxBodyBytes: 64 * 1024, // default 1 MiB
  storeTimeoutMs: 2_000, // default 5 s
  onError(error: unknown, context: ErrorContext) {
    // Unexpected errors, with their details; the client only sees the code.
    console.error(`plant-store: ${context.kind} on ${context.request.method} ${context.request.url}`, error);
  },
});

export { handle };
