import { createOverloadGate, staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

// One gate for every handler of this process: they share its event loop.
const overload = createOverloadGate({ maxInFlight: 256, maxEventLoopDelayMs: 100, retryAfterSeconds: 1 });

const handler = createNodeHandler({
  store: createMemoryStore(),
  authenticate: staticTokens(['s3cret-token']),
  health: true,
  // Past either bound: 503 (1503) with Retry-After at once; /healthz is never refused.
  overload,
  // 100 creates per token per minute, in this process's memory; past it: 429 (1404).
  rateLimit: { limit: 100, windowSeconds: 60 },
});

export { handler };
