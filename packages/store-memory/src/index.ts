export { createMemoryStore, DEFAULT_MAX_BYTES, DEFAULT_MAX_PLANTS, ENTRY_OVERHEAD_BYTES } from './create-memory-store.ts';

export type { MemoryStore, MemoryStoreOptions } from './create-memory-store.ts';
