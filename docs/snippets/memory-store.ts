import { createMemoryStore } from '@plant-store/store-memory';

const store = createMemoryStore({
  maxPlants: 10_000, // default 1,000,000
  maxBytes: 16 * 1024 * 1024, // default 256 MiB
});

await store.insertIfAbsent(7n, { name: 'Fern' }); // { status: 'inserted' }
console.log(store.size, store.bytes); // 1 136
