// Plant Store in an h3 app on Node: POST /api/plants and GET /api/openapi.json.
import { H3, serve } from 'h3';
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

const plants = createFetchHandler({
  // app.mount() strips /api before calling the handler; this tells Plant Store, for its OpenAPI document.
  mountPath: '/api',
  store: createMemoryStore(),
  // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
  authenticate: staticTokens([process.env.PLANT_TOKEN ?? '']),
});

const app = new H3();
app.get('/', () => 'the rest of your app\n');
// Everything under /api is Plant Store's: a path it does not serve gets its 404.
app.mount('/api', plants);

const server = serve(app, { hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000), silent: true });
await server.ready();
console.log(`listening on ${server.url}`);
