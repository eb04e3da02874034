import express from 'express';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createDocsPage } from '@plant-store/docs-page';
import { createMemoryStore } from '@plant-store/store-memory';

const app = express();

// POST /api/plants, GET /api/openapi.json, and the page at GET /api/docs with its own title.
app.use(
  '/api',
  createNodeHandler({
    store: createMemoryStore(),
    authenticate: staticTokens(['s3cret-token']),
    docs: createDocsPage({ title: 'Plants API' }),
  }),
);

app.listen(8080);
