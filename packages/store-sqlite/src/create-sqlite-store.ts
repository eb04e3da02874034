import type { InsertResult, Plant, PlantStore } from '@plant-store/core';
import { openSqlite, type SqliteConnection, type SqliteStatement } from './open-sqlite.ts';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** The database file; created with its table if absent. Several processes may share it. */
  readonly path: string;
  /**
   * `full` (default): a create is answered only once its commit is on disk;
   * neither a crash of the process nor a power loss can lose it. `normal`:
   * commits reach the disk at WAL checkpoints; a crash of the process still
   * loses nothing, but a power loss or an operating-system crash can lose the
   * last creates that were answered 200.
   */
  readonly synchronous?: 'full' | 'normal';
  /** How long to wait for another process's lock on the file before failing (503). Default 5 s. */
  readonly busyTimeoutMs?: number;
  /** The table; created if absent. Default `plants`. */
  readonly table?: string;
}

/** A {@link PlantStore} in a SQLite file; `close()` finishes pending creates and closes the file. */
export interface SqliteStore extends PlantStore {
  /** The database file. */
  readonly path: string;
  /** Resolves once a read of the table succeeds (the file is open and readable); rejects after `close()`. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  readonly id: bigint;
  readonly plant: Plant;
  readonly resolve: (result: InsertResult) => void;
  readonly reject: (error: unknown) => void;
}

const INSERTED: InsertResult = Object.freeze({ status: 'inserted' });

declare function setTimeout(callback: () => void, ms: number): unknown;
/** The next turn of the event loop, after the I/O that is ready now: where creates arriving together meet. */
const nextTurn: (callback: () => void) => void =
  (globalThis as { setImmediate?: (callback: () => void) => void }).setImmediate ?? ((callback) => void setTimeout(callback, 0));

/**
 * The storage interface in a SQLite file, with the runtime's own SQLite
 * (`node:sqlite` on Node 22.13+ and Deno, `bun:sqlite` on Bun): plants survive
 * restarts and crashes, and several processes may share one file.
 *
 * A create is answered only after its transaction committed, with
 * `synchronous=FULL` by default, so a 200 means the plant is on disk. Creates
 * that arrive together share one transaction and one sync (group commit):
 * each turn of the event loop commits everything queued in the previous one.
 * Insert-if-absent is one `INSERT … ON CONFLICT (id) DO NOTHING RETURNING id`
 * per plant, so exactly one create per id wins, within a batch and across
 * processes (SQLite lets one writer commit at a time; the others wait up to
 * `busyTimeoutMs`). A batch that fails is rolled back whole: its creates
 * reject (503) and nothing of them is stored.
 *
 * `name` and `tag` hold JSON string literals (`"Fern"`), because SQLite text
 * turns lone surrogates into U+FFFD and some drivers cut it at U+0000; ids
 * are `INTEGER PRIMARY KEY`, exact over the whole int64 range.
 *
 * @throws Error on Node 20, which has no built-in SQLite, and for a file that
 *   cannot be opened or written.
 * @example
 * const store = await createSqliteStore({ path: 'plants.db' });
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const table = options.table ?? 'plants';
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new TypeError('createSqliteStore: `table` must be a plain lowercase identifier');
  const synchronous = options.synchronous ?? 'full';
  if (synchronous !== 'full' && synchronous !== 'normal') throw new TypeError('createSqliteStore: `synchronous` must be "full" or "normal"');
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) throw new TypeError('createSqliteStore: `busyTimeoutMs` must be a non-negative integer');

  const db = await openSqlite(options.path);
  let insert: SqliteStatement;
  let select: SqliteStatement;
  let probe: SqliteStatement;
  try {
    // First of all: with no busy timeout, a second process opening the file
    // fails at once with "database is locked".
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    await switchToWal(db, busyTimeoutMs);
    db.exec(`PRAGMA synchronous = ${synchronous.toUpperCase()}`);
    // The schema is written in a transaction that takes the write lock up
    // front, under the busy timeout. Left to itself, CREATE TABLE reads the
    // schema and then asks to write, and SQLite does not wait when a read must
    // become a write: a process that started at the same moment as another
    // (PLANT_STORE_WORKERS) failed at once with "database is locked".
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        tag TEXT,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
      )`);
      db.exec('COMMIT');
    } catch (error) {
      // Some failures end the transaction themselves; the first error is the one to report.
      try {
        db.exec('ROLLBACK');
      } catch {}
      throw error;
    }
    insert = db.prepare(`INSERT INTO ${table} (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id`);
    select = db.prepare(`SELECT name, tag FROM ${table} WHERE id = ?`);
    probe = db.prepare(`SELECT 1 FROM ${table} LIMIT 1`);
  } catch (error) {
    db.close();
    throw error;
  }
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');

  const read = (id: bigint): Plant | undefined => {
    const row = select.get(id) as { name: string; tag: string | null } | undefined;
    if (row === undefined) return undefined;
    const name = JSON.parse(row.name) as string;
    return row.tag === null ? { name } : { name, tag: JSON.parse(row.tag) as string };
  };

  let queue: Pending[] = [];
  let closed = false;

  /** Commits every create queued so far in one transaction, then answers each. */
  function flush(): void {
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    const results: InsertResult[] = [];
    try {
      begin.run();
      try {
        for (const { id, plant } of batch) {
          const inserted = insert.get(id, JSON.stringify(plant.name), plant.tag === undefined ? null : JSON.stringify(plant.tag));
          if (inserted !== undefined) {
            results.push(INSERTED);
            continue;
          }
          // Rows are never deleted, so a clash always finds the row that won.
          const existing = read(id);
          if (existing === undefined) throw new Error(`plant ${id} clashed on insert but could not be read`);
          results.push({ status: 'exists', existing });
        }
        commit.run();
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    } catch (error) {
      // Nothing of this batch was stored: every create in it may be retried.
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const [i, pending] of batch.entries()) pending.resolve(results[i]!);
  }

  return {
    path: options.path,
    insertIfAbsent(id, plant) {
      if (closed) return Promise.reject(new Error('the SQLite store is closed'));
      return new Promise<InsertResult>((resolve, reject) => {
        if (queue.length === 0) nextTurn(flush);
        // A copy: the caller's object may change after the call.
        queue.push({ id, plant: plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag }, resolve, reject });
      });
    },
    get(id) {
      try {
        return Promise.resolve(read(id));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    ready() {
      if (closed) return Promise.reject(new Error('the SQLite store is closed'));
      try {
        // One page of the table: cheap, and it fails when the file can no longer be read.
        probe.get();
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      flush();
      db.close();
    },
  };
}

/**
 * `PRAGMA journal_mode = WAL`, tried again for up to `busyTimeoutMs` while
 * another process holds the file: the switch needs the file to itself, and
 * SQLite answers "database is locked" at once instead of waiting under the
 * busy timeout (seen with two or three processes opening a new file together).
 */
async function switchToWal(db: SqliteConnection, busyTimeoutMs: number): Promise<void> {
  const until = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if (!/database is locked/i.test(String((error as Error)?.message)) || Date.now() >= until) throw error;
      await new Promise<void>((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}
