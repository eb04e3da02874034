// Plant Store in a Fastify app that already uses @fastify/middie for Connect
// middleware: POST /api/plants and GET /api/openapi.json.
import middie from '@fastify/middie';
import Fastify from 'fastify';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

const app = Fastify();
await app.register(middie);
// Middie runs middleware before Fastify reads a body, and strips /api from the
// URL without saying so: mountPath tells Plant Store, for its OpenAPI document.
app.use(
  '/api',
  createNodeHandler({
    mountPath: '/api',
    store: createMemoryStore(),
    // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
    authenticate: staticTokens([process.env.PLANT_TOKEN ?? '']),
  }),
);
app.get('/', () => 'the rest of your app\n');

const url = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
console.log(`listening on ${url}`);
