// Plant Store mounted in an Express app: POST /api/plants.
import express from 'express';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

const app = express();
app.use(
  '/api',
  createNodeHandler({
    store: createMemoryStore(),
    // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
    authenticate: staticTokens([process.env.PLANT_TOKEN ?? '']),
  }),
);
app.get('/', (_req, res) => {
  res.send('the rest of your app\n');
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`);
});
