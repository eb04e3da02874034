// Runs on Node 22.13+, Bun and Deno, wherever the runtime has its own SQLite.
import type { InsertResult, Plant, PlantStore } from '@plant-store/core';
import { loadIdentityReader, sameFile, type FileIdentity } from './file-identity.ts';
import { openSqlite, type SqliteConnection, type SqliteStatement } from './open-sqlite.ts';
import { sqliteErrorKind } from './sqlite-error-kind.ts';

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
  /**
   * How long a create waits for another connection's lock on the file before
   * it fails (503) with nothing stored; the wait is asynchronous, so nothing
   * else waits with it. Default 4.5 s: under the handler's `storeTimeoutMs`
   * (5 s), so that the store, not the handler, gives up first and a 503 then
   * means the plant was not stored.
   */
  readonly busyTimeoutMs?: number;
  /** The table; created if absent. Default `plants`. */
  readonly table?: string;
  /**
   * Told the number of creates each committed transaction held, for
   * metrics (`PlantMetrics.observeGroupCommit`). Called synchronously after
   * the commit; it must not throw. Default: none.
   */
  readonly onGroupCommit?: ((size: number) => void) | undefined;
  /**
   * Whether the file's integrity is checked when the store opens it
   * (`PRAGMA quick_check`), refusing a damaged file rather than serving from
   * it. It reads the whole file: about 0.1 s per million plants (60 MiB)
   * from the page cache on a 2-core machine, plus the time to read the file
   * from disk when it is not cached. Default true.
   */
  readonly checkIntegrity?: boolean;
}

/** A {@link PlantStore} in a SQLite file; `close()` finishes pending creates and closes the file. */
export interface SqliteStore extends PlantStore {
  /** The database file. */
  readonly path: string;
  /**
   * Resolves when a create could succeed now; rejects, with the reason, after
   * `close()`, when the file was removed or replaced since it was opened,
   * while another connection has held the write lock for `busyTimeoutMs` or
   * longer, while a write fails (a full disk, an I/O error, a file or disk
   * made read-only: a write of its own, at most once a second, finds it
   * before a create does), or while the file is damaged (found by a create or
   * a read; checked again every 4 s, so that it is ready within 5 s of being sound, or
   * ten times as long as the check took on a file where it takes longer).
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  readonly id: bigint;
  /** The plant's name and tag as stored: JSON string literals, made when the create came, outside any batch. */
  readonly name: string;
  readonly tag: string | null;
  readonly resolve: (result: InsertResult) => void;
  readonly reject: (error: unknown) => void;
  /** When it was queued: it waits for the lock until `busyTimeoutMs` after. */
  readonly since: number;
}

/** How a batch ended: committed with one result per create, or not committed. */
type BatchOutcome = { readonly ok: true; readonly results: readonly InsertResult[] } | { readonly ok: false; readonly error: unknown; readonly gone?: true };

const INSERTED: InsertResult = Object.freeze({ status: 'inserted' });
/** Longest pause between tries for a lock that another connection holds. */
const MAX_RETRY_MS = 40;
/** Readiness tries a write of its own at most this often: a probed server commits no more than that. */
const WRITE_PROBE_EVERY_MS = 1_000;
/** While the file is found damaged, readiness checks its integrity again at most this often (longer on a file whose check takes long): the check reads the whole file. */
const DAMAGE_CHECK_EVERY_MS = 4_000;

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
 * processes. A batch that fails is rolled back whole: its creates reject
 * (503), or answer `full` (507) when the disk is full, and nothing of them is
 * stored; the first error of the batch is the one reported.
 *
 * SQLite lets one connection write at a time. The runtimes' SQLite is
 * synchronous, and its `busy_timeout` would wait inside the call, stopping
 * every request of the process; so, once open, the store sets it to 0 and
 * tries a locked batch again after a pause (doubling to 40 ms), answering its
 * creates once the lock is free, or failing those that waited
 * `busyTimeoutMs`.
 *
 * `name` and `tag` hold JSON string literals (`"Fern"`), because SQLite text
 * turns lone surrogates into U+FFFD and some drivers cut it at U+0000; ids
 * are `INTEGER PRIMARY KEY`, exact over the whole int64 range.
 *
 * @throws Error on Node 20, which has no built-in SQLite, for a file that
 *   cannot be opened or written, and for a table of that name already there
 *   that cannot hold the plants exactly (an `id` of REAL affinity, a `NOT
 *   NULL` column the store does not write), and for a file not there whose
 *   write-ahead log (`-wal`, `-shm`) is: a database moved or removed while
 *   in use, which a database made anew would lose.
 * @example
 * const store = await createSqliteStore({ path: 'plants.db' });
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const table = options.table ?? 'plants';
  const { onGroupCommit } = options;
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new TypeError('createSqliteStore: `table` must be a plain lowercase identifier');
  const synchronous = options.synchronous ?? 'full';
  if (synchronous !== 'full' && synchronous !== 'normal') throw new TypeError('createSqliteStore: `synchronous` must be "full" or "normal"');
  const busyTimeoutMs = options.busyTimeoutMs ?? 4_500;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) throw new TypeError('createSqliteStore: `busyTimeoutMs` must be a non-negative integer');
  const path = options.path;

  const identityOf = await loadIdentityReader();
  // The file not there beside the write-ahead log of a database in use (or left by a crash): it was moved or removed.
  // A database made anew here would discard that log, and with it the creates it holds, under any process still
  // writing to it (a worker started again while the file was moved away did so).
  if (identityOf(path) === 'missing') {
    const logs = [`${path}-wal`, `${path}-shm`].filter((log) => typeof identityOf(log) === 'object');
    if (logs.length > 0) {
      throw new Error(
        `the SQLite file ${path} is not there, but ${logs.join(' and ')} of a database in use or left by a crash are: it was moved or removed; put it back (a database made anew here would discard that log)`,
      );
    }
  }
  const db = await openSqlite(path);
  let insert: SqliteStatement;
  let select: SqliteStatement;
  let probe: SqliteStatement;
  let userVersion: SqliteStatement;
  try {
    // First of all: with no busy timeout, a second process opening the file
    // fails at once with "database is locked". Waiting inside the call is
    // acceptable here, before the store serves anything.
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    await switchToWal(db, busyTimeoutMs);
    db.exec(`PRAGMA synchronous = ${synchronous.toUpperCase()}`);
    if (options.checkIntegrity !== false) {
      const problem = integrityProblem(db);
      if (problem !== undefined)
        throw new Error(`the SQLite file ${path} is damaged (${problem}); restore it from a backup, or move it away to start on a new file`);
    }
    // The schema is written in a transaction that takes the write lock up
    // front, under the busy timeout. Left to itself, CREATE TABLE reads the
    // schema and then asks to write, and SQLite does not wait when a read must
    // become a write: a process that started at the same moment as another
    // (PLANT_STORE_WORKERS) failed at once with "database is locked".
    userVersion = db.prepare('PRAGMA user_version');
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        tag TEXT,
        created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
      )`);
      // A table of that name made by something else is used only if the store's creates can be written to it exactly.
      const unfit = unfitTable(db, table);
      if (unfit !== undefined) {
        throw new Error(`the SQLite file ${path} has a table ${table} the store cannot use (${unfit}); move the file away, or give the store another table`);
      }
      // A write even when the table is there: where the file could not be opened for writing (its permissions, a
      // read-only disk), SQLite opens it for reading alone, and that connection would fail every create for its
      // whole life, however soon the file can be written again. So the open fails instead, and is tried again.
      rewriteUserVersion(db, userVersion);
      db.exec('COMMIT');
    } catch (error) {
      rollback(db);
      throw error;
    }
    // From now on a lock never waits inside a call: see `attempt`.
    db.exec('PRAGMA busy_timeout = 0');
    insert = db.prepare(`INSERT INTO ${table} (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id`);
    select = db.prepare(`SELECT name, tag FROM ${table} WHERE id = ?`);
    probe = db.prepare(`SELECT 1 FROM ${table} LIMIT 1`);
  } catch (error) {
    db.close();
    throw error;
  }
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  // The file as opened; a path that cannot be checked (":memory:", Deno
  // without read permission) is not watched.
  const opened = identityOf(path);
  const openedFile: FileIdentity | undefined = typeof opened === 'object' ? opened : undefined;

  const read = (id: bigint): Plant | undefined => {
    const row = select.get(id) as { name: string; tag: string | null } | undefined;
    if (row === undefined) return undefined;
    const name = JSON.parse(row.name) as string;
    return row.tag === null ? { name } : { name, tag: JSON.parse(row.tag) as string };
  };

  let queue: Pending[] = [];
  /** Whether a try is due (next turn, or after a pause for the lock). */
  let scheduled = false;
  let retryMs = 0;
  /** When a try first found the write lock taken, in the current run of such tries. */
  let lockedSince: number | undefined;
  /** The first error of the last write that failed for another reason than the lock; cleared by a commit. */
  let writeFailure: unknown;
  let lastWriteProbe = 0;
  /** The error that found the file damaged, until a check of its integrity passes again. */
  let damage: unknown;
  let lastDamageCheck = 0;
  let damageCheckEveryMs = DAMAGE_CHECK_EVERY_MS;
  let closed = false;
  let dbClosed = false;

  function schedule(delayMs: number): void {
    if (scheduled) return;
    scheduled = true;
    if (delayMs === 0) nextTurn(attempt);
    else setTimeout(attempt, delayMs);
  }

  /** Why no create can be stored in the file any more, if so: it was removed or replaced. */
  function fileGone(): Error | undefined {
    if (openedFile === undefined) return undefined;
    const now = identityOf(path);
    if (now === undefined || (now !== 'missing' && sameFile(now, openedFile))) return undefined;
    const what = now === 'missing' ? 'removed' : 'replaced by another file';
    // Commits would go to a file that no longer has this name: gone at the next start.
    return new Error(`the SQLite file ${path} was ${what} since the store opened it; creates are refused until it is back or the server restarts`);
  }

  /** Commits `batch` in one transaction; a `busy` failure leaves nothing behind and may be tried again. */
  function commitBatch(batch: readonly Pending[]): BatchOutcome {
    const gone = fileGone();
    if (gone !== undefined) return { ok: false, error: gone, gone: true };
    const results: InsertResult[] = [];
    try {
      begin.run();
    } catch (error) {
      return { ok: false, error };
    }
    try {
      for (const { id, name, tag } of batch) {
        const inserted = insert.get(id, name, tag);
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
      // The name may have been taken from the file while it committed: those creates would be gone at the next start.
      const goneMeanwhile = fileGone();
      if (goneMeanwhile !== undefined) return { ok: false, error: goneMeanwhile, gone: true };
      return { ok: true, results };
    } catch (error) {
      // SQLite may have rolled back by itself (a full disk, an I/O error):
      // the error that caused it is the one to report, not ROLLBACK's own.
      rollback(db);
      return { ok: false, error };
    }
  }

  /** Answers the creates that waited `busyTimeoutMs` for the lock: nothing of them was stored. */
  function expire(now: number, lockError: unknown): void {
    if (queue.length === 0 || now - queue[0]!.since < busyTimeoutMs) return;
    const waiting = queue.filter((pending) => now - pending.since < busyTimeoutMs);
    const expired = queue.filter((pending) => now - pending.since >= busyTimeoutMs);
    queue = waiting;
    const error = new Error(`the SQLite file ${path} stayed locked by another connection for ${busyTimeoutMs} ms; nothing of the create was stored`, {
      cause: lockError,
    });
    for (const pending of expired) pending.reject(error);
  }

  /** Commits everything queued so far in one transaction and answers each, or tries again later if the file is locked. */
  function attempt(): void {
    scheduled = false;
    if (dbClosed || queue.length === 0) return;
    const batch = queue;
    queue = [];
    const outcome = commitBatch(batch);
    if (!outcome.ok && sqliteErrorKind(outcome.error) === 'busy') {
      const now = Date.now();
      lockedSince ??= now;
      // Queued first, waited longest: the batch goes back ahead of anything newer.
      queue = batch.concat(queue);
      expire(now, outcome.error);
      if (queue.length === 0) return;
      // Jittered, so that processes waiting on one file do not try in step.
      retryMs = Math.min(MAX_RETRY_MS, Math.max(1, retryMs * 2));
      schedule(retryMs / 2 + Math.random() * (retryMs / 2));
      return;
    }
    lockedSince = undefined;
    retryMs = 0;
    if (queue.length > 0) schedule(0);
    if (outcome.ok) {
      writeFailure = undefined;
      for (const [i, pending] of batch.entries()) pending.resolve(outcome.results[i]!);
      // Counted after the answers: an observer that throws (a metrics fault) must not fail committed creates.
      try {
        onGroupCommit?.(batch.length);
      } catch {
        // The batch stands; counting is the observer's concern.
      }
      return;
    }
    // A file gone is readiness's own check; any other failure is a write that failed, which readiness then tries
    // again at once rather than at its next turn.
    if (outcome.gone !== true) {
      writeFailure = outcome.error;
      lastWriteProbe = 0;
    }
    if (sqliteErrorKind(outcome.error) === 'damaged') damage ??= outcome.error;
    // Nothing of this batch was stored where the next start finds it: every create in it may be retried.
    if (sqliteErrorKind(outcome.error) === 'full') {
      const full: InsertResult = { status: 'full', cause: outcome.error };
      for (const pending of batch) pending.resolve(full);
    } else {
      for (const pending of batch) pending.reject(outcome.error);
    }
  }

  /**
   * Takes the write lock and lets it go, changing nothing: whether a create
   * could start now. With `write`, it also rewrites the header's
   * `user_version` with its own value, one page: the smallest commit there
   * is, and what tells a disk that takes writes (again).
   */
  function tryWrite(write: boolean): unknown {
    try {
      begin.run();
    } catch (error) {
      return error;
    }
    try {
      if (write) {
        rewriteUserVersion(db, userVersion);
        commit.run();
      } else {
        rollback(db);
      }
      return undefined;
    } catch (error) {
      rollback(db);
      return error;
    }
  }

  function checkReady(): void {
    const gone = fileGone();
    if (gone !== undefined) throw gone;
    const now = Date.now();
    if (damage !== undefined) {
      if (now - lastDamageCheck < damageCheckEveryMs) throw damaged(damage);
      lastDamageCheck = now;
      // The pages read while damaged may be in the connection's cache: checked from the file, not from there.
      db.exec('PRAGMA shrink_memory');
      const problem = integrityProblem(db);
      // The check holds the event loop while it reads the whole file: on a large one, the next waits ten times as long.
      damageCheckEveryMs = Math.max(DAMAGE_CHECK_EVERY_MS, 10 * (Date.now() - now));
      if (problem !== undefined) throw damaged(damage, problem);
      damage = undefined;
    }
    // A write of its own at most once a second: a disk made read-only, or an I/O error, is then found before a create
    // fails on it, and found gone again as soon, at the cost of one small commit a second to a server probed that often.
    const writeNow = now - lastWriteProbe >= WRITE_PROBE_EVERY_MS;
    if (writeNow) lastWriteProbe = now;
    const error = tryWrite(writeNow);
    if (error === undefined) {
      lockedSince = undefined;
      if (writeNow) writeFailure = undefined;
    } else if (sqliteErrorKind(error) === 'busy') {
      // Another connection's commit holds the lock for moments; only a lock
      // held as long as a create may wait means creates fail.
      lockedSince ??= now;
      if (now - lockedSince >= busyTimeoutMs) {
        throw new Error(`the SQLite file ${path} has been locked by another connection for ${now - lockedSince} ms`, { cause: error });
      }
    } else if (writeNow) {
      writeFailure = error;
    } else {
      throw error;
    }
    if (writeFailure !== undefined) throw writeFailure;
    try {
      // One page of the table: it fails when the file can no longer be read.
      probe.get();
    } catch (error) {
      if (sqliteErrorKind(error) === 'damaged') {
        damage = error;
        lastDamageCheck = now;
      }
      throw error;
    }
  }

  function damaged(cause: unknown, problem?: string): Error {
    return new Error(`the SQLite file ${path} is damaged${problem === undefined ? '' : ` (${problem})`}; restore it from a backup`, { cause });
  }

  return {
    path,
    insertIfAbsent(id, plant) {
      if (closed) return Promise.reject(new Error('the SQLite store is closed'));
      // Written now, so that the caller's object may change after the call, and so that a plant whose JSON the engine
      // cannot build (past its longest string) fails alone, not the batch it would have shared a transaction with.
      let name: string;
      let tag: string | null;
      try {
        name = JSON.stringify(plant.name);
        tag = plant.tag === undefined ? null : JSON.stringify(plant.tag);
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise<InsertResult>((resolve, reject) => {
        schedule(0);
        queue.push({ id, name, tag, resolve, reject, since: Date.now() });
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
        checkReady();
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      // Pending creates are answered first: committed, failed, or given up
      // on after waiting `busyTimeoutMs` for the lock.
      while (queue.length > 0) {
        attempt();
        if (queue.length > 0) await new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, retryMs)));
      }
      dbClosed = true;
      db.close();
    },
  };
}

/**
 * Why a `table` already in the file (made by another program, or by hand)
 * cannot hold the store's plants, or undefined when it can: an `id` column
 * of REAL affinity rounds ids past 2^53 (two ids would be one plant), and a
 * `NOT NULL` column with no default that the store does not write fails
 * every create. What the store's own `CREATE TABLE` makes passes.
 */
function unfitTable(db: SqliteConnection, table: string): string | undefined {
  // One row a question: the statements of every runtime's SQLite give their first row alike.
  const id = db.prepare(`SELECT type FROM pragma_table_info('${table}') WHERE name = 'id'`).get() as { type: string } | undefined;
  // SQLite's affinity rules, in their order (https://sqlite.org/datatype3.html, 3.1): INT, then CHAR, CLOB or TEXT,
  // then BLOB or no type, then REAL, FLOA or DOUB.
  const type = id?.type.toUpperCase() ?? '';
  if (!/INT|CHAR|CLOB|TEXT|BLOB/.test(type) && /REAL|FLOA|DOUB/.test(type)) return `its id column is ${id!.type}, which rounds ids`;
  const unwritten = db
    .prepare(`SELECT name FROM pragma_table_info('${table}') WHERE name NOT IN ('id', 'name', 'tag') AND "notnull" = 1 AND dflt_value IS NULL LIMIT 1`)
    .get() as { name: string } | undefined;
  return unwritten === undefined ? undefined : `its column ${unwritten.name} is NOT NULL with no default, and the store writes only id, name and tag`;
}

/**
 * What `PRAGMA quick_check` finds wrong with the file (its first line), or
 * undefined when it finds it sound; a file SQLite cannot read as a database
 * at all is what the check's own error says.
 */
function integrityProblem(db: SqliteConnection): string | undefined {
  try {
    const row = db.prepare('PRAGMA quick_check(1)').get() as Record<string, unknown> | undefined;
    const result = row === undefined ? undefined : String(Object.values(row)[0]);
    if (result === 'ok') return undefined;
    // On one line: the check names the database in a line of its own (`*** in database main ***`).
    return (result ?? 'no answer from the integrity check')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('***'))
      .join('; ');
  } catch (error) {
    if (sqliteErrorKind(error) !== 'damaged') throw error;
    return error instanceof Error ? error.message : String(error);
  }
}

/** Ends the transaction if SQLite has not ended it already; its error, if any, is not the one to report. */
function rollback(db: SqliteConnection): void {
  try {
    db.exec('ROLLBACK');
  } catch {}
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
      if (sqliteErrorKind(error) !== 'busy' || Date.now() >= until) throw error;
      await new Promise<void>((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}

/**
 * Rewrites the header's `user_version` with its own value, read with `userVersion`: one page, the smallest write
 * there is, which fails where the connection or the disk takes no writes.
 */
function rewriteUserVersion(db: SqliteConnection, userVersion: SqliteStatement): void {
  const version = Number((userVersion.get() as { user_version: bigint | number }).user_version);
  db.exec(`PRAGMA user_version = ${version}`);
}
