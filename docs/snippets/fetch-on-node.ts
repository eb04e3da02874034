// server.ts, run with PLANT_TOKEN set: `node server.ts` on Node 22.18+, `npx tsx server.ts` on Node 20
import { createServer } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { createNodeServerAdapter } from '@plant-store/adapter-fetch/node';
import { createMemoryStore } from '@plant-store/store-memory';

// The code a Worker runs, on node:http through @whatwg-node/server.
const adapter = createNodeServerAdapter({
  store: createMemoryStore(),
  // Throws at start, naming the unset variable, when PLANT_TOKEN is missing.
  authenticate: staticTokens([process.env.PLANT_TOKEN!]),
});

createServer(adapter).listen(8080, '127.0.0.1', () => console.log('listening on http://127.0.0.1:8080'));
