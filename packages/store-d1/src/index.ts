export { createD1Store } from './create-d1-store.ts';

export type { D1Store, D1StoreOptions } from './create-d1-store.ts';
export type { D1Database, D1PreparedStatement, D1Result } from './d1-database.ts';
