import { staticTokens } from '@plant-store/core';
import { serve } from '@plant-store/server';
import { createRqliteStore } from '@plant-store/store-rqlite';

const store = createRqliteStore({
  // Every node of the cluster; user:password@ in a URL is sent as basic auth.
  urls: ['http://10.0.0.1:4001', 'http://10.0.0.2:4001', 'http://10.0.0.3:4001'],
  timeoutMs: 4_500, // default 4.5 s: each call ends by then, before the handler's 5 s
  attemptTimeoutMs: 2_000, // default 2 s: most time one node gets before the next is tried
  readLevel: 'strong', // default: get() reads through the Raft log
  table: 'plants', // default 'plants', created on first use
});
await store.migrate(); // optional: fail at start rather than on the first call

const running = await serve({ store, authenticate: staticTokens(['s3cret-token']) });
process.once('SIGTERM', () => void running.close());
