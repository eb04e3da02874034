export { createSqliteStore } from './create-sqlite-store.ts';
export { isSqliteAvailable } from './open-sqlite.ts';

export type { SqliteStore, SqliteStoreOptions } from './create-sqlite-store.ts';
