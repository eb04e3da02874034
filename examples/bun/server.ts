// Plant Store on Bun: `bun server.ts`. The types are Bun's own (@types/bun, tsconfig.json).
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

const fetch = createFetchHandler({
  store: createMemoryStore(),
  // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
  authenticate: staticTokens([Bun.env.PLANT_TOKEN ?? '']),
});

const server = Bun.serve({ hostname: '127.0.0.1', port: Number(Bun.env.PORT ?? 3000), fetch });
console.log(`listening on ${server.url.origin}`);
