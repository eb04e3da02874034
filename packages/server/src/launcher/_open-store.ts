// Runs in the Node, Bun and Deno launchers, and in the workerd launcher's front (on Node) to check an rqlite cluster at start.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PlantStore } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { createPostgresStore } from '@plant-store/store-postgres';
import { createRqliteStore } from '@plant-store/store-rqlite';
import { createSqliteStore, isSqliteAvailable } from '@plant-store/store-sqlite';
import { redact, type StoreChoice } from '../common/_parse-database-url.ts';
import { whyNoDirectory } from './_why-no-directory.ts';

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
 * Opens the store `choice` names (docs/contract.md, "Stores"), telling
 * `onGroupCommit` the size of each commit of a SQLite or PostgreSQL store. The default is
 * a SQLite file at {@link DEFAULT_SQLITE_FILE} wherever the runtime has
 * SQLite, else (Node 20) the memory store, with a warning.
 *
 * @throws Error with one line naming the cause: a file that cannot be opened,
 *   SQLite asked for on a runtime without it, a database out of reach within
 *   its connect timeout. When the default file is what fails, the line says
 *   it is the default (the user set nothing) and how to choose another place.
 */
export async function openStore(choice: StoreChoice, onGroupCommit?: (size: number) => void): Promise<OpenedStore> {
  const observer = onGroupCommit === undefined ? {} : { onGroupCommit };
  switch (choice.kind) {
    case 'memory':
      return { store: createMemoryStore(), description: 'memory', warning: MEMORY_WARNING, close: async () => {} };
    case 'default':
      if (!(await isSqliteAvailable())) {
        return { store: createMemoryStore(), description: 'memory', warning: `${MEMORY_WARNING} (this runtime has no built-in SQLite)`, close: async () => {} };
      }
      try {
        mkdirSync(DEFAULT_DATA_DIR, { recursive: true });
      } catch (error) {
        throw defaultPlaceError(whyNoDirectory(DEFAULT_DATA_DIR, error));
      }
      return openSqlite(DEFAULT_SQLITE_FILE, observer, (cause) => defaultPlaceError(`it cannot be opened (${cause})`));
    case 'sqlite':
      return openSqlite(choice.path, observer);
    case 'postgres': {
      const where = redact(choice.url);
      const store = await createPostgresStore({ url: choice.url, ...observer }).catch((error: unknown) => {
        throw new Error(`PLANT_STORE_DATABASE_URL: cannot use PostgreSQL at ${where}: ${messageOf(error)}`);
      });
      return { store, description: `postgres at ${where}`, close: () => store.close() };
    }
    case 'rqlite': {
      const where = choice.urls.map(redact).join(', ');
      let store: ReturnType<typeof createRqliteStore>;
      try {
        store = createRqliteStore({ urls: choice.urls });
      } catch (error) {
        // A node the store cannot use (its message hides the password, as `where` does).
        throw new Error(`PLANT_STORE_DATABASE_URL: cannot use rqlite at ${where}: ${messageOf(error)}`);
      }
      // As PostgreSQL's connect: a cluster out of reach stops the start, rather than fail every create after.
      await store.migrate().catch((error: unknown) => {
        throw new Error(`PLANT_STORE_DATABASE_URL: cannot use rqlite at ${where}: ${messageOf(error)}${causeOf(error)}`);
      });
      return { store, description: `rqlite at ${where}`, close: async () => {} };
    }
  }
}

/**
 * @param failed The error for a file that cannot be opened, given the cause
 *   in words; by default it names the file `PLANT_STORE_DATABASE_URL` gave.
 */
async function openSqlite(
  path: string,
  observer: { readonly onGroupCommit?: (size: number) => void },
  failed = (cause: string) => new Error(`PLANT_STORE_DATABASE_URL: cannot use the SQLite file ${resolve(path)}: ${cause}`),
): Promise<OpenedStore> {
  const absolute = resolve(path);
  const store = await createSqliteStore({ path: absolute, ...observer }).catch((error: unknown) => {
    throw failed(messageOf(error));
  });
  return { store, description: `sqlite at ${absolute}`, close: () => store.close() };
}

/**
 * The default SQLite place cannot be used: said as such, since the user set
 * nothing and may not know of `.plant-store` at all, with the two ways out.
 */
function defaultPlaceError(why: string): Error {
  return new Error(
    `PLANT_STORE_DATABASE_URL: unset, so plants go to the default SQLite file ${resolve(DEFAULT_SQLITE_FILE)}, but ${why}; ` +
      'set PLANT_STORE_DATABASE_URL=sqlite:PATH to keep them in another file, or memory: to keep them in memory',
  );
}

/** What the last node did, when a store's timeout says it: `; last: …`. */
function causeOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? '' : `; last: ${messageOf(cause)}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
