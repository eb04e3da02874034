// server.ts, run with PLANT_TOKEN set: `node server.ts` on Node 22.18+, `npx tsx server.ts` on Node 20
import { createServer } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

const plants = createNodeHandler({
  store: createMemoryStore(),
  // Throws at start, naming the unset variable, when PLANT_TOKEN is missing.
  authenticate: staticTokens([process.env.PLANT_TOKEN!]),
});

createServer((req, res) =>
  plants(req, res, () => {
    // Paths Plant Store does not serve come here, body unread.
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here\n');
  }),
).listen(8080, '127.0.0.1', () => console.log('listening on http://127.0.0.1:8080'));
