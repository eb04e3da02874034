import { createSqliteStore } from '@plant-store/store-sqlite';

// node:sqlite on Node 22.13+ and Deno, bun:sqlite on Bun; Node 20 has none.
const store = await createSqliteStore({
  path: 'plants.db', // created with its table if absent; several processes may share it
  synchronous: 'full', // default: a 200 means on disk
  busyTimeoutMs: 4_500, // default: how long a create waits for another process's lock
});

await store.insertIfAbsent(9223372036854775807n, { name: 'Monstera' }); // { status: 'inserted' }, once committed
await store.close(); // commits what is pending, then closes the file
