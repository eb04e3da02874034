import { staticTokens } from '@plant-store/core';
import { serve } from '@plant-store/server';
import { createMemoryStore } from '@plant-store/store-memory';

const running = await serve({
  // The handler's options...
  store: createMemoryStore(),
  authenticate: staticTokens(['s3cret-token']),
  // ...and the server's own, here with their defaults.
  host: '127.0.0.1',
  port: 8080,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  shutdownTimeoutMs: 10_000,
  accessLog: (line) => console.log(line), // or false
});
console.log(`listening on ${running.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
