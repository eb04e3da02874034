// server.ts, run with PLANT_TOKEN set: `node server.ts` on Node 22.18+, `npx tsx server.ts` on Node 20
import { createServer } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { docsPage } from '@plant-store/docs-page';
import { createMemoryStore } from '@plant-store/store-memory';

const plants = createNodeHandler({
  store: createMemoryStore(),
  authenticate: staticTokens([process.env.PLANT_TOKEN!]),
  basePath: '/v1',
  // GET /v1/docs, and its files under /v1/docs/; no token needed to read them.
  docs: docsPage,
});

createServer(plants).listen(8080, '127.0.0.1', () => console.log('reference on http://127.0.0.1:8080/v1/docs'));
