// Plant Store's Fetch handler on Deno.serve, as a Deno program that embeds it
// serves it, with request ids as the standalone servers and the lean baselines
// have them. (The standalone Deno server runs node:http instead, for its timeouts.)
/// <reference path="./globals.d.ts" />
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';
import { BENCH_STORE_BOUNDS, host, port, token } from './baseline-logic.mjs';

const fetch = createFetchHandler({ store: createMemoryStore(BENCH_STORE_BOUNDS), authenticate: staticTokens([token]), requestId: true });
Deno.serve({ hostname: host, port, onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`) }, fetch);
