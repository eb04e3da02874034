// Plant Store's Fetch handler on Bun.serve, as a Bun program that embeds it
// serves it, with request ids as the standalone servers and the lean baselines
// have them. (The standalone Bun server adds its request deadline and drain.)
/// <reference path="./globals.d.ts" />
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';
import { BENCH_STORE_BOUNDS, host, port, token } from './baseline-logic.mjs';

const server = Bun.serve({
  hostname: host,
  port,
  fetch: createFetchHandler({ store: createMemoryStore(BENCH_STORE_BOUNDS), authenticate: staticTokens([token]), requestId: true }),
});
console.log(`listening on ${server.url.origin}`);
