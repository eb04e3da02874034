// Plant Store in a Fastify app: POST /api/plants and GET /api/openapi.json.
import Fastify from 'fastify';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

const plants = createNodeHandler({
  basePath: '/api',
  store: createMemoryStore(),
  // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
  authenticate: staticTokens([process.env.PLANT_TOKEN ?? '']),
});

const app = Fastify();
// onRequest runs before Fastify reads a body, so Plant Store reads its own: exact
// int64 ids, its size limit. Paths it does not serve go on to the routes below.
app.addHook('onRequest', (request, reply, done) => plants(request.raw, reply.raw, () => done()));
app.get('/', () => 'the rest of your app\n');

const url = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
console.log(`listening on ${url}`);
