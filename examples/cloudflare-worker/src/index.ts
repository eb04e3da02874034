// Plant Store as a Cloudflare Worker: `wrangler dev`, with PLANT_TOKEN as a secret.
// The store lives as long as the isolate; use a durable store for real data.
import { staticTokens } from '@plant-store/core';
import { createFetchHandler, type FetchContext, type FetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

interface Env {
  PLANT_TOKEN: string;
}

let handler: FetchHandler | undefined;

export default {
  fetch(request: Request, env: Env, context: FetchContext): Promise<Response> {
    // A Worker sees its secrets only with a request, so the handler is built on the first one.
    handler ??= createFetchHandler({ store: createMemoryStore(), authenticate: staticTokens([env.PLANT_TOKEN]) });
    return handler(request, context);
  },
};
