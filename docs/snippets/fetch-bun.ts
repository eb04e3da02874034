// server.ts, run with `bun server.ts`
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

const fetch = createFetchHandler({
  store: createMemoryStore(),
  authenticate: staticTokens([Bun.env.PLANT_TOKEN!]),
});

Bun.serve({ hostname: '127.0.0.1', port: 8080, fetch });
