// Plant Store on Bun: `bun server.ts`
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

// The little of Bun's global this example uses (`@types/bun` has all of it).
declare const Bun: {
  env: Record<string, string | undefined>;
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): { url: URL };
};

const fetch = createFetchHandler({
  store: createMemoryStore(),
  authenticate: staticTokens([Bun.env.PLANT_TOKEN ?? 'change-me']),
});

const server = Bun.serve({ hostname: '127.0.0.1', port: Number(Bun.env.PORT ?? 3000), fetch });
console.log(`listening on ${server.url.origin}`);
