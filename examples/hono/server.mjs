// Plant Store in a Hono app on Node: POST /api/plants and GET /api/openapi.json.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

const plants = createFetchHandler({
  // Plant Store's routes under /api, matched on the request as it came (c.req.raw), which Hono leaves whole.
  basePath: '/api',
  store: createMemoryStore(),
  // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
  authenticate: staticTokens([process.env.PLANT_TOKEN ?? '']),
});

const app = new Hono();
app.get('/', (c) => c.text('the rest of your app\n'));
// Everything under /api is Plant Store's: a path it does not serve gets its 404.
app.all('/api/*', (c) => plants(c.req.raw));

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
