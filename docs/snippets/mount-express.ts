import express from 'express';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

const app = express();

// POST /api/plants and GET /api/openapi.json; other paths go on to the routes below.
app.use(
  '/api',
  createNodeHandler({
    store: createMemoryStore(),
    authenticate: staticTokens(['s3cret-token']),
  }),
);

app.get('/', (_req, res) => {
  res.send('the rest of your app\n');
});

app.listen(8080);
