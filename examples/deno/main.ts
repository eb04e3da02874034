// Plant Store on Deno: `deno run --allow-net --allow-env=PORT,PLANT_TOKEN main.ts`.
// The types are Deno's own (the tests run `deno check` on it, installed as npm installs it).
import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

const fetch = createFetchHandler({
  store: createMemoryStore(),
  // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
  authenticate: staticTokens([Deno.env.get('PLANT_TOKEN') ?? '']),
});

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 3000),
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  fetch,
);
