// server.ts, run with PLANT_TOKEN set: `node server.ts` on Node 22.18+, `npx tsx server.ts` on Node 20
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
    // Throws at start, naming the unset variable, when PLANT_TOKEN is missing.
    authenticate: staticTokens([process.env.PLANT_TOKEN!]),
    docs: createDocsPage({ title: 'Plants API' }),
  }),
);

app.listen(8080, '127.0.0.1', (error) => {
  if (error) throw error; // the port is taken, say
  console.log('reference on http://127.0.0.1:8080/api/docs');
});
