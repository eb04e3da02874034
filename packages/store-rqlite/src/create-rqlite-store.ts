// Runs anywhere (fetch only): Node, Bun, Deno and workerd, over rqlite's HTTP API.
import type { InsertResult, Plant, PlantStore } from '@plant-store/core';
import { createRqliteClient, type RqliteClient } from './create-rqlite-client.ts';
import { int64Text } from './int64-text.ts';
import { parseNodeUrl } from './parse-node-url.ts';

/** Options of {@link createRqliteStore}. */
export interface RqliteStoreOptions {
  /**
   * The HTTP API address of every node of the cluster, e.g.
   * `['http://10.0.0.1:4001', 'http://10.0.0.2:4001', 'http://10.0.0.3:4001']`,
   * each optionally with `user:password@` for rqlite's basic auth. Any node
   * takes every call (rqlite forwards writes to its leader); the others are
   * tried when one fails, and a redirect is followed only to one of them.
   */
  readonly urls: readonly string[];
  /**
   * Most time one call may take, every node and retry included: past it the
   * call rejects with a `StoreTimeoutError` (503). Default 4.5 s, under the
   * handler's 5 s `storeTimeoutMs`, so that the store gives up before the
   * handler stops waiting.
   */
  readonly timeoutMs?: number;
  /**
   * Most time one node is given before the next is tried, when there are
   * several: a node that swallows packets must not take the whole call.
   * Default 2 s, above rqlite's default 1 s election timeout.
   */
  readonly attemptTimeoutMs?: number;
  /**
   * The read consistency of `get`: `strong` (default) reads through the Raft
   * log, so it sees every create acknowledged before it, even across a change
   * of leader; `weak` asks the leader's own copy, one round trip cheaper, and
   * may miss a create for the moment a deposed leader still thinks it leads.
   * The read that answers a clash is always `strong`.
   */
  readonly readLevel?: 'weak' | 'strong';
  /** The table; created on first use if absent. Default `plants`. */
  readonly table?: string;
  /** The `fetch` to send requests with (a service binding's, say). Default: the runtime's. */
  readonly fetch?: typeof fetch;
}

/** A {@link PlantStore} on rqlite; `migrate()` creates its table ahead of the first call. */
export interface RqliteStore extends PlantStore {
  /**
   * Creates the table if it is absent (idempotent). Every call waits for this
   * anyway, so calling it is only needed to fail early; a failure is retried
   * by the next call.
   */
  migrate(): Promise<void>;
  /**
   * Resolves once a node answers `GET /readyz` with 200, which rqlite does
   * only while the node knows a leader, and the table exists. Each node is
   * asked once, within `timeoutMs`: no waiting out an election.
   */
  ready(): Promise<void>;
  get(id: bigint): Promise<Plant | undefined>;
  insertIfAbsent(id: bigint, plant: Plant): Promise<InsertResult>;
}

/** One statement's outcome in rqlite's answer; keys rqlite has nothing for are left out (0 rows affected, say). */
interface StatementResult {
  readonly error?: string;
  readonly rows_affected?: number;
  readonly columns?: readonly string[];
  readonly values?: readonly (readonly unknown[])[];
}

const INSERTED: InsertResult = { status: 'inserted' };

/**
 * The storage interface on rqlite (SQLite replicated by Raft), over its HTTP
 * API with `fetch` alone, so it runs unchanged on Node, Bun, Deno and workerd.
 * One table whose `INTEGER PRIMARY KEY` holds the exact int64 id.
 *
 * A create is one `INSERT … ON CONFLICT (id) DO NOTHING` sent to
 * `/db/execute`, which answers once the Raft majority has committed it
 * (queued writes are never used). The Raft log orders every write, so of
 * concurrent creates of an id exactly one affects a row, whichever nodes they
 * were sent to; the others read the stored plant at level `strong` (through
 * the log, so they see the winner) to tell a replay from a conflict.
 *
 * rqlite passes JSON numbers through doubles, so ids travel as decimal text,
 * made integers by SQLite (`CAST(? AS INTEGER)`) and read back with
 * `CAST(id AS TEXT)`. `name` and `tag` hold JSON string literals (`"Fern"`):
 * rqlite's JSON decoder turns a lone surrogate into U+FFFD, and the literal's
 * `\ud800` escape survives it. `created_at` is sent by the store, as a default
 * would be evaluated by each node apart and differ between replicas.
 *
 * Every call ends within `timeoutMs`, one deadline for all its steps: nodes
 * are tried in turn on a network error, a 5xx, an error rqlite reports for the
 * whole request (with status 200: no leader, or the leader lost while the node
 * forwarded to it) or a redirect out of the cluster, until one answers. A create
 * retried on another node after its first node failed may find its own row,
 * stored before the failure; it is then answered as a replay of itself (the
 * handler's 200), which is what the client asked for. A statement error (a
 * full disk aside, answered `{ status: 'full' }`) or a 4xx rejects (503).
 *
 * @example
 * const store = createRqliteStore({ urls: ['http://127.0.0.1:4001', 'http://127.0.0.1:4003', 'http://127.0.0.1:4005'] });
 * @throws TypeError when `urls` is empty or holds no http(s) URL of a node alone, `table` is not a plain
 *   lowercase identifier, or a time option is not a positive number.
 */
export function createRqliteStore(options: RqliteStoreOptions): RqliteStore {
  if (!Array.isArray(options.urls)) throw new TypeError("createRqliteStore: `urls` must be an array of node URLs, e.g. ['http://127.0.0.1:4001']");
  const nodes = options.urls.map(parseNodeUrl);
  const table = options.table ?? 'plants';
  if (!/^[a-z_][a-z0-9_]*$/.test(table) || table.startsWith('sqlite_')) {
    throw new TypeError('createRqliteStore: `table` must be a plain lowercase identifier, not starting with sqlite_');
  }
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? 4_500);
  const attemptTimeoutMs = positive('attemptTimeoutMs', options.attemptTimeoutMs ?? 2_000);
  const readLevel = options.readLevel ?? 'strong';
  if (readLevel !== 'weak' && readLevel !== 'strong') throw new TypeError("createRqliteStore: `readLevel` must be 'weak' or 'strong'");
  const client: RqliteClient = createRqliteClient(nodes, { timeoutMs, attemptTimeoutMs, fetch: options.fetch });

  const name = `"${table}"`;
  const create = `CREATE TABLE IF NOT EXISTS ${name} (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    tag TEXT,
    created_at TEXT NOT NULL
  )`;
  const insert = `INSERT INTO ${name} (id, name, tag, created_at) VALUES (CAST(? AS INTEGER), ?, ?, ?) ON CONFLICT (id) DO NOTHING`;
  const select = `SELECT CAST(id AS TEXT) AS id, name, tag FROM ${name} WHERE id = CAST(? AS INTEGER)`;

  /** The one result of a one-statement request, or a rejection naming rqlite's complaint. */
  async function run(path: '/db/execute' | '/db/query', query: string | undefined, statement: readonly unknown[], deadline: number): Promise<StatementResult> {
    const answer = await client.send({ method: 'POST', path, ...(query === undefined ? {} : { query }), body: [statement] }, deadline);
    const results = (answer.json as { results?: unknown } | null)?.results;
    const [result] = Array.isArray(results) ? (results as StatementResult[]) : [];
    if (typeof result !== 'object' || result === null) throw new Error(`${answer.origin} answered ${path} without a result: ${answer.text.slice(0, 200)}`);
    return result;
  }

  let migrated: Promise<void> | undefined;
  /**
   * Creates the table once, by `deadline`. A call that finds the creation
   * under way waits for it: it was started by an earlier call, whose
   * deadline comes first.
   */
  const migrate = (deadline = performance.now() + timeoutMs): Promise<void> => {
    if (migrated === undefined) {
      const attempt = run('/db/execute', undefined, [create], deadline).then((result) => {
        if (result.error !== undefined) throw new Error(`creating the table ${name} failed: ${result.error}`);
      });
      migrated = attempt;
      // Not remembered when it failed: the next call tries again.
      attempt.catch(() => {
        if (migrated === attempt) migrated = undefined;
      });
    }
    return migrated;
  };

  const read = (row: readonly unknown[]): Plant => {
    const [, storedName, storedTag] = row;
    if (typeof storedName !== 'string' || (storedTag !== null && typeof storedTag !== 'string')) {
      throw new Error(`rqlite answered a row of ${name} that this store did not write: ${JSON.stringify(row).slice(0, 200)}`);
    }
    return storedTag === null ? { name: JSON.parse(storedName) as string } : { name: JSON.parse(storedName) as string, tag: JSON.parse(storedTag) as string };
  };

  async function find(key: string, level: 'weak' | 'strong', deadline: number): Promise<Plant | undefined> {
    const result = await run('/db/query', `level=${level}`, [select, key], deadline);
    if (result.error !== undefined) throw new Error(`reading plant ${key} failed: ${result.error}`);
    const row = result.values?.[0];
    return row === undefined ? undefined : read(row);
  }

  // Each call has one deadline for all its steps (the table, the write, the read of a clash), so it ends within timeoutMs.
  return {
    migrate: () => migrate(),
    async insertIfAbsent(id, plant) {
      const deadline = performance.now() + timeoutMs;
      const key = int64Text(id);
      const values = [key, JSON.stringify(plant.name), plant.tag === undefined ? null : JSON.stringify(plant.tag), new Date().toISOString()];
      await migrate(deadline);
      const result = await run('/db/execute', undefined, [insert, ...values], deadline);
      if (result.error !== undefined) {
        if (/\b(database or disk is full|SQLITE_FULL)\b/i.test(result.error)) return { status: 'full', cause: new Error(result.error) };
        throw new Error(`storing plant ${key} failed: ${result.error}`);
      }
      // rqlite leaves rows_affected out when it is 0.
      if ((result.rows_affected ?? 0) > 0) return INSERTED;
      // Strong: the answer must come from the log the INSERT was decided in, whichever node leads now.
      const existing = await find(key, 'strong', deadline);
      // Rows are never deleted, so a clash always finds the row that won.
      if (existing === undefined) throw new Error(`plant ${key} clashed on insert but could not be read`);
      return { status: 'exists', existing };
    },
    async get(id) {
      const deadline = performance.now() + timeoutMs;
      const key = int64Text(id);
      await migrate(deadline);
      return find(key, readLevel, deadline);
    },
    async ready() {
      const deadline = performance.now() + timeoutMs;
      await client.sendOnce({ method: 'GET', path: '/readyz' }, deadline);
      await migrate(deadline);
    },
  };
}

function positive(option: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new TypeError(`createRqliteStore: \`${option}\` must be a positive number of milliseconds`);
  return value;
}
