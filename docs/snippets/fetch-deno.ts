// main.ts, run with `deno run --allow-net --allow-env=PLANT_TOKEN main.ts`
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

const fetch = createFetchHandler({
  store: createMemoryStore(),
  authenticate: staticTokens([Deno.env.get('PLANT_TOKEN')!]),
});

Deno.serve({ hostname: '127.0.0.1', port: 8080 }, fetch);
