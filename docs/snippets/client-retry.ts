import { createPlantClient } from '@plant-store/client';

const client = createPlantClient({
  baseUrl: 'http://127.0.0.1:8080',
  token: 's3cret-token',
  timeoutMs: 5_000, // per attempt, the answer's body included
  retry: {
    attempts: 5, // requests per create, the first included
    initialDelayMs: 100, // doubled before each next retry, with jitter
    maxDelayMs: 5_000,
    maxElapsedMs: 30_000, // the whole create: every attempt and every wait
    onRetry: ({ attempt, error, delayMs }) => console.warn(`attempt ${attempt} failed (${error.code}); next in ${Math.round(delayMs)} ms`),
  },
});

// Aborting stops the create, its retries and its waits; a page that goes away has no more use for it.
const controller = new AbortController();
const plant = await client.createPlant({ id: 42n, name: 'Pothos' }, { signal: controller.signal });
console.log(plant); // { name: 'Pothos' }
