import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PlantStore } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { createPostgresStore } from '@plant-store/store-postgres';
import { createSqliteStore, isSqliteAvailable } from '@plant-store/store-sqlite';
import { redact, type StoreChoice } from './parse-database-url.ts';

/** The directory, under the working directory, of the default SQLite file. */
export const DEFAULT_DATA_DIR = '.plant-store';
/** The default SQLite file: `.plant-store/plants.db` under the working directory. */
export const DEFAULT_SQLITE_FILE = `${DEFAULT_DATA_DIR}/plants.db`;

/** A store a standalone server opened, with the words that tell where it keeps plants. */
export interface OpenedStore {
  readonly store: PlantStore;
  /** For the startup line, e.g. `sqlite at /srv/.plant-store/plants.db`; never a password. */
  readonly description: string;
  /** A line to print at start when plants will not outlive the process. */
  readonly warning?: string;
  close(): Promise<void>;
}

const MEMORY_WARNING =
  'plant-store: plants are kept in memory and lost when the process stops; ' +
  'set PLANT_STORE_DATABASE_URL=sqlite:PATH (Node 22.13+, Bun, Deno) or postgres://… to keep them';

/**
 * Opens the store `choice` names (docs/contract.md, "Stores"). The default is
 * a SQLite file at {@link DEFAULT_SQLITE_FILE} wherever the runtime has
 * SQLite, else (Node 20) the memory store, with a warning.
 *
 * @throws Error with one line naming the cause: a file that cannot be opened,
 *   SQLite asked for on a runtime without it, a database out of reach within
 *   its connect timeout.
 */
export async function openStore(choice: StoreChoice): Promise<OpenedStore> {
  switch (choice.kind) {
    case 'memory':
      return { store: createMemoryStore(), description: 'memory', warning: MEMORY_WARNING, close: async () => {} };
    case 'default':
      if (!(await isSqliteAvailable())) {
        return { store: createMemoryStore(), description: 'memory', warning: `${MEMORY_WARNING} (this runtime has no built-in SQLite)`, close: async () => {} };
      }
      mkdirSync(DEFAULT_DATA_DIR, { recursive: true });
      return openSqlite(DEFAULT_SQLITE_FILE);
    case 'sqlite':
      return openSqlite(choice.path);
    case 'postgres': {
      const where = redact(choice.url);
      const store = await createPostgresStore({ url: choice.url }).catch((error: unknown) => {
        throw new Error(`PLANT_STORE_DATABASE_URL: cannot use PostgreSQL at ${where}: ${messageOf(error)}`);
      });
      return { store, description: `postgres at ${where}`, close: () => store.close() };
    }
  }
}

async function openSqlite(path: string): Promise<OpenedStore> {
  const absolute = resolve(path);
  const store = await createSqliteStore({ path: absolute }).catch((error: unknown) => {
    throw new Error(`PLANT_STORE_DATABASE_URL: cannot use the SQLite file ${absolute}: ${messageOf(error)}`);
  });
  return { store, description: `sqlite at ${absolute}`, close: () => store.close() };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
