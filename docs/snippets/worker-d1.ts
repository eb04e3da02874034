// src/index.ts of a Cloudflare Worker whose wrangler.toml binds a D1 database as DB,
// with PLANT_TOKEN as a secret; the types are @cloudflare/workers-types'.
import { staticTokens } from '@plant-store/core';
import { createFetchHandler, type FetchHandler } from '@plant-store/adapter-fetch';
import { createD1Store } from '@plant-store/store-d1';

interface Env {
  readonly DB: D1Database;
  readonly PLANT_TOKEN: string;
}

let handler: FetchHandler | undefined;

export default {
  fetch(request, env, context) {
    // A Worker sees its bindings only with a request, so the handler is built on the first one.
    // The plants are in D1: every isolate sees the same ones, and they outlive each isolate.
    handler ??= createFetchHandler({ store: createD1Store(env.DB), authenticate: staticTokens([env.PLANT_TOKEN]) });
    // Passing the context lets an unread request body be drained after the answer (waitUntil).
    return handler(request, context);
  },
} satisfies ExportedHandler<Env>;
