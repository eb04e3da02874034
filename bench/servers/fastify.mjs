// Fastify 5 with a JSON schema (no type coercion, or "5" would pass as an id).
import Fastify from 'fastify';
import { acceptedToken as accepted, host, port } from './baseline-logic.mjs';

/** @typedef {{ id: number, name: string, tag?: string }} NewPlant what the schema lets through */

const plants = new Map();
const app = Fastify({ ajv: { customOptions: { coerceTypes: false } } });

app.addHook('onRequest', async (request, reply) => {
  const authorization = request.headers.authorization;
  if (authorization === undefined || !authorization.startsWith('Bearer ') || !accepted(authorization.slice(7))) {
    return reply.code(401).send({ error: 1101, message: 'authorization: the token was rejected' });
  }
});

const schema = {
  body: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' } },
  },
};

app.post('/plants', { schema }, async (request, reply) => {
  const { id, name, tag } = /** @type {NewPlant} */ (request.body);
  const plant = tag === undefined ? { name } : { name, tag };
  const existing = plants.get(id);
  if (existing !== undefined && (existing.name !== name || existing.tag !== tag)) {
    return reply.code(409).send({ error: 1300, message: 'id: exists with a different name or tag' });
  }
  if (existing === undefined) plants.set(id, plant);
  return plant;
});

await app.listen({ port, host });
console.log(`listening on http://${host}:${/** @type {import('node:net').AddressInfo} */ (app.server.address()).port}`);
