// Runs on Bun: Elysia 1.4, as its documentation writes such a route: a TypeBox schema of the body
// (`t`, with TypeBox's own Integer for the id), the bearer token checked in a beforeHandle hook as
// the baselines compare it (length, then a constant-time XOR loop), and the same Map, statuses and
// Error bodies.
import { Type } from '@sinclair/typebox';
import { Elysia, t } from 'elysia';
import { acceptedToken as accepted, host, port } from './baseline-logic.mjs';

const plants = new Map();
// TypeBox's own Integer: Elysia's t.Integer also takes a numeric string, and "5" is no id.
const NewPlant = t.Object({ id: Type.Integer(), name: t.String(), tag: t.Optional(t.String()) });

const app = new Elysia()
  .onError(({ code, set }) => {
    if (code === 'VALIDATION' || code === 'PARSE') {
      set.status = 400;
      return { error: 1004, message: 'body: not a NewPlant' };
    }
  })
  .post(
    '/plants',
    ({ body, set }) => {
      const { id, name, tag } = body;
      const plant = tag === undefined ? { name } : { name, tag };
      const existing = plants.get(id);
      if (existing !== undefined && (existing.name !== name || existing.tag !== tag)) {
        set.status = 409;
        return { error: 1300, message: 'id: exists with a different name or tag' };
      }
      if (existing === undefined) plants.set(id, plant);
      return plant;
    },
    {
      body: NewPlant,
      beforeHandle({ headers, set }) {
        const authorization = headers['authorization'];
        if (authorization === undefined || !authorization.startsWith('Bearer ') || !accepted(authorization.slice(7))) {
          set.status = 401;
          return { error: 1101, message: 'authorization: the token was rejected' };
        }
      },
    },
  )
  .listen({ hostname: host, port });
console.log(`listening on http://${host}:${app.server?.port}`);
