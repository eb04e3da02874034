import { createPlantHandler, staticTokens, type ErrorContext } from '@plant-store/core';
import { docsPage } from '@plant-store/docs-page';
import { createMemoryStore } from '@plant-store/store-memory';

// Every feature is off unless asked for; createNodeHandler and createFetchHandler take the same options.
const handle = createPlantHandler({
  store: createMemoryStore(),
  authenticate: staticTokens(['s3cret-token']),
  // Browsers on these origins may call the service; a preflight from any other gets 403 (1102).
  cors: { origins: ['https://app.example.com', 'http://localhost:5173'], maxAgeSeconds: 600 },
  // Every answer gets x-request-id: the request's X-Request-Id when sane, else a new UUID.
  requestId: true,
  // GET /healthz (alive) and GET /readyz (the store answers), without credentials.
  health: true,
  // The API reference page at GET /docs, loading nothing from other hosts.
  docs: docsPage,
  onError(error: unknown, context: ErrorContext) {
    console.error(`plant-store: ${context.kind} (request ${context.requestId})`, error);
  },
});

export { handle };
