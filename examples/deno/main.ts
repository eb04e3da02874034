// Plant Store on Deno: `deno run --allow-net --allow-env=PORT,PLANT_TOKEN main.ts`
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

// The little of Deno's global this example uses (Deno's own types have all of it).
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen: (address: { hostname: string; port: number }) => void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const fetch = createFetchHandler({
  store: createMemoryStore(),
  authenticate: staticTokens([Deno.env.get('PLANT_TOKEN') ?? 'change-me']),
});

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 3000),
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  fetch,
);
