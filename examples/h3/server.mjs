// Plant Store in an h3 app on Node: POST /api/plants and GET /api/openapi.json.
import { H3, serve } from 'h3';
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

const plants = createFetchHandler({
  // Plant Store's routes under /api, matched on the request as it came (event.req), which h3 leaves whole.
  basePath: '/api',
  store: createMemoryStore(),
  // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
  authenticate: staticTokens([process.env.PLANT_TOKEN ?? '']),
});

const app = new H3();
app.get('/', () => 'the rest of your app\n');
// Everything under /api is Plant Store's: a path it does not serve gets its 404.
app.all('/api/**', (event) => plants(event.req));

const server = serve(app, { hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000), silent: true });
await server.ready();
console.log(`listening on ${server.url}`);
