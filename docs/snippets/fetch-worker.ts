// src/index.ts of a Cloudflare Worker, with PLANT_TOKEN as a secret; the types are
// @cloudflare/workers-types'.
import { staticTokens } from '@plant-store/core';
import { createFetchHandler, type FetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

interface Env {
  readonly PLANT_TOKEN: string;
}

let handler: FetchHandler | undefined;

export default {
  fetch(request, env, context) {
    // A Worker sees its secrets only with a request, so the handler is built on the first one.
    // It lives as long as the isolate, and so do the plants of its memory store.
    handler ??= createFetchHandler({ store: createMemoryStore(), authenticate: staticTokens([env.PLANT_TOKEN]) });
    // Passing the context lets an unread request body be drained after the answer (waitUntil).
    return handler(request, context);
  },
} satisfies ExportedHandler<Env>;
