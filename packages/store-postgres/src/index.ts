export { createPostgresStore } from './create-postgres-store.ts';

export type { PostgresStore, PostgresStoreOptions } from './create-postgres-store.ts';
