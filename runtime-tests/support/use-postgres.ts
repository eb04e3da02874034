// Runs in vitest on Node: one embedded PostgreSQL for the tests of the enclosing describe block.
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type TestDatabase } from './start-postgres.mjs';

/**
 * Starts an embedded PostgreSQL before the tests of the enclosing block
 * (`beforeAll`, up to 120 s: a cold start on a loaded machine) and destroys it
 * after them (`afterAll`).
 *
 * @returns The database, for the block's tests: it exists once `beforeAll` has run.
 */
export function usePostgres(): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await startPostgres();
  }, 120_000);
  afterAll(() => database?.destroy());
  return () => {
    if (database === undefined) throw new Error('usePostgres(): the database is read before beforeAll has started it');
    return database;
  };
}
