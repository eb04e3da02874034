// Hono with its bearer-auth middleware and valibot validation.
import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import * as v from 'valibot';
import { token } from './baseline-logic.mjs';

const NewPlant = v.object({ id: v.pipe(v.number(), v.safeInteger()), name: v.string(), tag: v.optional(v.string()) });
const plants = new Map();

export const app = new Hono();
app.post('/plants', bearerAuth({ token }), vValidator('json', NewPlant), (c) => {
  const { id, name, tag } = c.req.valid('json');
  const plant = tag === undefined ? { name } : { name, tag };
  const existing = plants.get(id);
  if (existing !== undefined && (existing.name !== name || existing.tag !== tag)) {
    return c.json({ error: 1300, message: 'id: exists with a different name or tag' }, 409);
  }
  if (existing === undefined) plants.set(id, plant);
  return c.json(plant);
});
