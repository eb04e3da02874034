// Plant Store as a Cloudflare Worker keeping plants in D1: `wrangler dev`, with PLANT_TOKEN
// as a secret and the D1 database that wrangler.toml binds as DB. The types are
// @cloudflare/workers-types' (tsconfig.json).
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
