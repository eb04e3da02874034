// Runs anywhere (fetch only): the package's public surface.
export { createRqliteStore } from './create-rqlite-store.ts';

export type { RqliteStore, RqliteStoreOptions } from './create-rqlite-store.ts';
