// Plant Store's Fetch handler served on node:http by @whatwg-node/server, with
// request ids as the standalone servers and the lean baselines have them.
import { createServer } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { createNodeServerAdapter } from '@plant-store/adapter-fetch/node';
import { createMemoryStore } from '@plant-store/store-memory';
import { BENCH_STORE_BOUNDS, host, port, token } from './baseline-logic.mjs';

const server = createServer(createNodeServerAdapter({ store: createMemoryStore(BENCH_STORE_BOUNDS), authenticate: staticTokens([token]), requestId: true }));
server.listen(port, host, () => console.log(`listening on http://${host}:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`));
