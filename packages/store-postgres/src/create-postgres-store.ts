// Runs on Node, Bun and Deno: postgres.js over their `node:net`.
import type { InsertResult, Plant, PlantStore } from '@plant-store/core';
import postgres from 'postgres';
import { atSend } from './at-send.ts';
import { bracketedHosts } from './bracketed-hosts.ts';
import { sqlLiteral } from './sql-literal.ts';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * A connection URL, e.g. `postgres://user:password@127.0.0.1:5432/plants`.
   * Several hosts (`@db1:5432,db2:5432/plants`) are tried in turn; add
   * `target_session_attrs=primary` so that only a primary is used. An IPv6
   * address goes in brackets, with or without its port (`@[2001:db8::7]:5432`).
   */
  readonly url: string;
  /** Most connections for creates, and most of their statements in flight; one more connection serves reads. Default 10. */
  readonly maxConnections?: number;
  /** Most time to open a connection before the create fails (503). Default 5 s. */
  readonly connectTimeoutMs?: number;
  /**
   * Most time one call may take, waiting for a connection included: past it
   * the call rejects (503), a create not yet sent is never sent, and the
   * database cancels a statement still running (`SET LOCAL
   * statement_timeout` with the time left). Default 4.5 s, under the
   * handler's 5 s `storeTimeoutMs`, so that the store gives up before the
   * handler stops waiting. At least 110: a statement goes out only with more
   * than 10 ms left beyond the 100 ms by which the database cuts it first.
   */
  readonly statementTimeoutMs?: number;
  /** The table; created if absent. Default `plants`. */
  readonly table?: string;
  /**
   * Told the number of creates each committed transaction held, for
   * metrics (`PlantMetrics.observeGroupCommit`). Called synchronously after
   * the commit; it must not throw. Default: none.
   */
  readonly onGroupCommit?: ((size: number) => void) | undefined;
}

/** A {@link PlantStore} on PostgreSQL; `close()` ends its pool. */
export interface PostgresStore extends PlantStore {
  /** Resolves once `SELECT 1` answers, within `statementTimeoutMs` (waiting for a connection included). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface Slot {
  sql: postgres.Sql;
  busy: boolean;
}

interface Pending {
  readonly id: bigint;
  readonly plant: Plant;
  /** `performance.now()` past which the caller has been answered with a rejection. */
  readonly deadline: number;
  settled: boolean;
  readonly resolve: (result: InsertResult) => void;
  readonly reject: (error: unknown) => void;
}

type Row = { readonly id: string; readonly name: string; readonly tag: string | null };

const INSERTED: InsertResult = { status: 'inserted' };
// Any fixed number: every instance takes the same lock to migrate one at a time.
const MIGRATION_LOCK = 7_214_530_118;
/** Most creates in one statement. */
const MOST_PER_BATCH = 500;
/**
 * Most characters of names and tags in one statement, unless its first create alone has more: each is written in at
 * most seven (`\u0001` as JSON, its backslash doubled in SQL), so that a statement stays some megabytes, far from the
 * engine's longest string, however long the plants of a batch (300 creates of a megabyte each broke it).
 */
const MOST_CHARS_PER_BATCH = 1 << 20;
/** Tries of one batch, the first included, when the database asks for a retry or a connection broke. */
const MOST_ATTEMPTS = 5;
/** A statement with less time left than this is not worth sending. */
const LEAST_STATEMENT_MS = 10;
/**
 * How much sooner the database cuts a statement than the store answers its
 * caller: the cut (57014) then reaches the store before the deadline, so a
 * statement held by a lock does not commit just after its caller heard 503.
 */
const CUT_AHEAD_MS = 100;
/**
 * Conflicts a new transaction resolves: serialization failure (REPEATABLE
 * READ, SERIALIZABLE, and the optimistic engines), deadlock. The statement
 * rolled back, so trying again is safe.
 */
const RETRY_CODES = new Set(['40001', '40P01']);
/**
 * A connection that broke, or a server that is shutting down or starting: the
 * statement may have committed before the break, and trying it again is still
 * right: insert-if-absent then finds the batch's own rows, which the handler
 * answers as replays (200).
 */
const RECONNECT_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);

/** Whether a statement's results are those of `timed`'s no-op (`SELECT 1 AS too_late`): it went out too late. */
function sentTooLate(results: readonly unknown[]): boolean {
  return !Array.isArray(results[0]);
}

/**
 * The storage interface on PostgreSQL, for several stateless instances over one
 * database. One table keyed by `BIGINT` (exact int64, never text or a double);
 * insert-if-absent is `INSERT … ON CONFLICT DO NOTHING RETURNING`, then the
 * batch's rows are read, so replay and conflict are decided correctly however
 * many processes race for an id. Creates that arrive while a connection is
 * busy share one statement and one commit (group commit).
 *
 * `name` and `tag` hold JSON string literals (`"Fern"`): PostgreSQL text cannot
 * hold U+0000 or lone surrogates, which are valid JSON strings and must come
 * back exactly.
 *
 * What a failing database does to it (docs/stores.md, "PostgreSQL"): each call
 * is answered within `statementTimeoutMs`, whatever the driver does; creates
 * wait in the store's own queue, never in the driver's, so a create whose
 * caller was answered is never sent; every statement carries its own
 * `SET LOCAL statement_timeout` (no startup parameter, so PgBouncer in
 * transaction mode takes it); a serialization failure, a deadlock or a broken
 * connection is tried again within the time left. Nothing is ever cancelled
 * through postgres.js: its cancel wedged connections and let an error of the
 * cancel connection escape unhandled.
 *
 * @throws Error, in one line, for a database out of reach within
 *   `connectTimeoutMs`, `target_session_attrs` before PostgreSQL 14, and a
 *   table of that name already there that the creates cannot be written to or
 *   read back from exactly (an id that is not bigint or has no unique key, a
 *   `name` or `tag` missing or of limited length, a `NOT NULL` column the
 *   store does not write).
 * @example
 * const store = await createPostgresStore({ url: process.env.PLANT_STORE_DATABASE_URL! });
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const table = options.table ?? 'plants';
  const { onGroupCommit } = options;
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new TypeError('createPostgresStore: `table` must be a plain lowercase identifier');
  const name = `"${table}"`;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const statementTimeoutMs = options.statementTimeoutMs ?? 4_500;
  // Less would leave no statement time to send: every call would be answered as too late.
  if (!Number.isFinite(statementTimeoutMs) || statementTimeoutMs < CUT_AHEAD_MS + LEAST_STATEMENT_MS) {
    throw new TypeError(`createPostgresStore: \`statementTimeoutMs\` must be at least ${CUT_AHEAD_MS + LEAST_STATEMENT_MS}`);
  }
  const maxConnections = options.maxConnections ?? 10;
  /** A pool of one connection, in place of one that broke (or to another URL: the version probe's). */
  // An IPv6 host as libpq reads it, which postgres.js 3.4.9 cannot (QUIRKS.md, postgres-ipv6-host-split): the hosts
  // go as its options, and it reads the rest of a URL whose hosts are one plain name. Read once per URL, not per
  // connection opened.
  const defaultPort = Number(environment('PGPORT')) || 5432;
  const givenHosts = bracketedHosts(options.url, defaultPort);
  const open = (url = options.url) => {
    const hosts = url === options.url ? givenHosts : bracketedHosts(url, defaultPort);
    // Its code and its BaseOptions type take arrays here; its Options type narrows them to one value.
    const hostOptions = hosts === undefined ? {} : ({ host: hosts.host, port: hosts.port } as unknown as Pick<postgres.Options<{}>, 'host' | 'port'>);
    return postgres(hosts?.url ?? url, {
      ...hostOptions,
      max: 1,
      connect_timeout: connectTimeoutMs / 1000,
      idle_timeout: 60,
      onnotice: () => {},
      // Every statement is sent as text (the simple protocol), so the array
      // types postgres.js would look up on each new connection are not needed:
      // a round trip saved when reconnecting, and in 3.4.9 nothing catches that
      // lookup's promise, so a connection lost during it was an unhandled rejection.
      fetch_types: false,
      connection: { application_name: 'plant-store' },
    });
  };
  /**
   * The store's connections, each a postgres.js pool of one, used by one
   * batch at a time. One that failed below the SQL level (closed, reset,
   * refused, timed out, or ended by the server with a FATAL error) is
   * dropped and replaced by a new one: postgres.js 3.4.9 reuses a closed
   * connection's state when it reconnects, and a connection closed between
   * queueing a write and flushing it kept the stale bytes and never sent its
   * startup message again (each use then waited out the connect timeout).
   */
  const slots: Slot[] = Array.from({ length: maxConnections }, () => ({ sql: open(), busy: false }));
  /** Reads (`get`, `ready`) have a connection of their own, so that a probe never waits behind creates. */
  const reader: Slot = { sql: open(), busy: false };
  const broken = (error: unknown) => !(error instanceof postgres.PostgresError) || error.severity === 'FATAL' || error.severity === 'PANIC';
  /** Runs `query` on `slot`'s connection, and replaces the connection when it broke. */
  async function on<T>(slot: Slot, query: (sql: postgres.Sql) => Promise<T>): Promise<T> {
    const sql = slot.sql;
    try {
      return await query(sql);
    } catch (error) {
      if (broken(error) && slot.sql === sql) {
        slot.sql = open();
        void sql.end({ timeout: 0 }).catch(() => {});
      }
      throw error;
    }
  }
  const endAll = (timeout: number) => Promise.all([...slots, reader].map((slot) => slot.sql.end({ timeout }))).then(() => {});

  const deadlineError = (ms = statementTimeoutMs) => new Error(`no answer from the database within ${ms} ms`);

  /**
   * `query`, or a rejection at `deadline`, whichever comes first. The query
   * runs on (a statement ends by its own `statement_timeout`); its outcome is
   * then dropped, a failure included.
   */
  function within<T>(query: Promise<T>, deadline: number, limitMs = statementTimeoutMs): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(deadlineError(limitMs)), Math.max(0, deadline - performance.now()));
    });
    query.catch(() => {});
    return Promise.race([query, late]).finally(() => clearTimeout(timer));
  }

  /** `statement` with the time left to `deadline` as its timeout, or a no-op when too little is left. */
  const timed = (deadline: number, statement: () => string) =>
    atSend(() => {
      const left = Math.floor(deadline - performance.now()) - CUT_AHEAD_MS;
      return left < LEAST_STATEMENT_MS ? 'SELECT 1 AS too_late' : `SET LOCAL statement_timeout = ${left}; ${statement()}`;
    });

  // The driver retries a host that never answers for far longer than its
  // connect timeout; the start must fail within it, with a clear reason.
  // One text of three statements: an implicit transaction, which holds the
  // lock until the table exists.
  // Before PostgreSQL 14, refused at start: see refusalBefore14. Asked of the first host that answers, on a
  // connection without the parameter, within the connect timeout.
  const probed = withoutTargetSessionAttrs(options.url);
  if (probed !== undefined) {
    const probe = open(probed.url);
    try {
      const [row] = await within(
        probe.unsafe<{ server_version_num: string }[]>('SHOW server_version_num'),
        performance.now() + connectTimeoutMs,
        connectTimeoutMs,
      );
      const refusal = refusalBefore14(probed.attrs, Number(row?.server_version_num));
      if (refusal !== undefined) throw refusal;
    } catch (error) {
      await endAll(0);
      throw error;
    } finally {
      await probe.end({ timeout: 0 }).catch(() => {});
    }
  }

  const migrated = performance.now() + connectTimeoutMs;
  try {
    await within(
      on(slots[0]!, (sql) =>
        sql.unsafe(
          timed(
            migrated,
            () => `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK});
          CREATE TABLE IF NOT EXISTS ${name} (
            id BIGINT PRIMARY KEY,
            name TEXT NOT NULL,
            tag TEXT,
            created_at TIMESTAMPTZ NOT NULL DEFAULT now()
          )`,
          ),
        ),
      ),
      migrated,
      connectTimeoutMs,
    );
    // A table of that name made by something else is used only if the store's creates can be written to it and read
    // back exactly. Its own transaction, after the migration's commit: under a default isolation of REPEATABLE READ
    // the migration's snapshot predates the lock, and would not see a table another instance created meanwhile.
    const results = (await within(
      on(slots[0]!, (sql) => sql.unsafe(timed(migrated, () => shapeQuery(table)))),
      migrated,
      connectTimeoutMs,
    )) as unknown as postgres.RowList<Column[]>[];
    if (sentTooLate(results)) throw deadlineError(connectTimeoutMs);
    const columns = results[1]!;
    const unfit = unfitTable(columns);
    if (unfit !== undefined) {
      const where = columns[0] === undefined ? table : `${columns[0].schema}.${table}`;
      throw new Error(`the database has a table ${where} the store cannot use (${unfit}); rename it, or give the store another table`);
    }
  } catch (error) {
    await endAll(0);
    throw error;
  }

  const read = (row: { name: string; tag: string | null }): Plant =>
    row.tag === null ? { name: JSON.parse(row.name) as string } : { name: JSON.parse(row.name) as string, tag: JSON.parse(row.tag) as string };

  let waiting: Pending[] = [];
  let flushScheduled = false;
  let expiry: ReturnType<typeof setTimeout> | undefined;

  const settle = (pending: Pending, answer: () => void) => {
    if (pending.settled) return;
    pending.settled = true;
    try {
      answer();
    } catch (error) {
      // What the answer is made of could not be read (a row another program wrote, its name no JSON string): the
      // create fails now, as it would have no other answer.
      pending.reject(error);
    }
  };

  /** Answers the waiting creates whose deadline has passed, and wakes up again for the next one. */
  function expire(): void {
    clearTimeout(expiry);
    expiry = undefined;
    const now = performance.now();
    let passed = 0;
    while (passed < waiting.length && waiting[passed]!.deadline <= now) passed++;
    for (const pending of waiting.splice(0, passed)) settle(pending, () => pending.reject(deadlineError()));
    // Deadlines grow along the queue: the head's is the next.
    if (waiting.length > 0) expiry = setTimeout(expire, Math.max(0, waiting[0]!.deadline - now));
  }

  function scheduleFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    // Creates that arrive in the same turn of the event loop join the batch.
    setImmediate(flush);
  }

  /** Sends what waits as one batch, if a connection is free for it. */
  function flush(): void {
    flushScheduled = false;
    expire();
    const slot = slots.find((candidate) => !candidate.busy);
    if (waiting.length === 0 || slot === undefined) return;
    let count = 0;
    for (let chars = 0; count < waiting.length && count < MOST_PER_BATCH; count++) {
      const { plant } = waiting[count]!;
      chars += plant.name.length + (plant.tag?.length ?? 0);
      if (chars > MOST_CHARS_PER_BATCH && count > 0) break;
    }
    const batch = waiting.splice(0, count);
    expire();
    slot.busy = true;
    void store(slot, batch).finally(() => {
      slot.busy = false;
      if (waiting.length > 0) scheduleFlush();
    });
  }

  /**
   * Stores a batch with one text of three statements, one round trip and one
   * commit: `SET LOCAL statement_timeout`, the INSERT of the first create of
   * each id (in id order, so that racing batches lock rows in one order),
   * and the SELECT of the batch's rows, which a clash answers from. Later
   * creates of an id are answered from the first one's outcome, as they would
   * be one after the other. Never rejects.
   */
  async function store(slot: Slot, batch: Pending[]): Promise<void> {
    // The batch is answered by its first deadline, the oldest create's.
    const deadline = batch[0]!.deadline;
    const abandon = setTimeout(
      () => {
        for (const pending of batch) settle(pending, () => pending.reject(deadlineError()));
      },
      Math.max(0, deadline - performance.now()),
    );
    const first = new Map<bigint, Pending>();
    for (const pending of batch) if (!first.has(pending.id)) first.set(pending.id, pending);
    try {
      // Written inside the try: a text the engine cannot hold fails this batch's creates, never the process.
      const creates = [...first.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const ids = creates.map((pending) => String(pending.id)).join(',');
      const rows = creates
        .map(
          ({ id, plant }) => `(${id}, ${sqlLiteral(JSON.stringify(plant.name))}, ${plant.tag === undefined ? 'NULL' : sqlLiteral(JSON.stringify(plant.tag))})`,
        )
        .join(',\n');
      const statement = timed(
        deadline,
        () => `INSERT INTO ${name} (id, name, tag) VALUES ${rows}
        ON CONFLICT (id) DO NOTHING RETURNING id::text AS id;
        SELECT id::text AS id, name, tag FROM ${name} WHERE id IN (${ids})`,
      );
      for (let attempt = 1; ; attempt++) {
        try {
          // A retry after a broken connection goes out on its replacement.
          const results = (await on(slot, (sql) => sql.unsafe(statement))) as unknown as postgres.RowList<Row[]>[];
          // Nothing was stored, and the creates not yet answered hear so now, not at a deadline whose timer the
          // finally below clears.
          if (sentTooLate(results)) {
            for (const pending of batch) settle(pending, () => pending.reject(deadlineError()));
            return;
          }
          answer(batch, first, results[1]!, results[2]!);
          // Counted after the answers: an observer that throws (a metrics fault) must not fail committed creates.
          try {
            onGroupCommit?.(batch.length);
          } catch {
            // The batch stands; counting is the observer's concern.
          }
          return;
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          const retry = typeof code === 'string' && (RETRY_CODES.has(code) || RECONNECT_CODES.has(code));
          const pause = Math.random() * 20 * 2 ** attempt;
          if (!retry || attempt >= MOST_ATTEMPTS || performance.now() + pause + CUT_AHEAD_MS + LEAST_STATEMENT_MS >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      }
    } catch (error) {
      // The statement failed as a whole, so none of the batch was stored,
      // unless the connection broke after the commit (the 503 message allows for that).
      for (const pending of batch) settle(pending, () => pending.reject(error));
    } finally {
      clearTimeout(abandon);
    }
  }

  function answer(batch: readonly Pending[], first: ReadonlyMap<bigint, Pending>, inserted: readonly Row[], found: readonly Row[]): void {
    const stored = new Set(inserted.map((row) => row.id));
    const existing = new Map(found.map((row) => [row.id, row]));
    for (const pending of batch) {
      const key = String(pending.id);
      const winner = first.get(pending.id)!;
      const row = existing.get(key);
      if (pending === winner && stored.has(key)) settle(pending, () => pending.resolve(INSERTED));
      // Rows are never deleted, so a clash always finds the row that won.
      else if (stored.has(key)) settle(pending, () => pending.resolve({ status: 'exists', existing: winner.plant }));
      else if (row !== undefined) settle(pending, () => pending.resolve({ status: 'exists', existing: read(row) }));
      else settle(pending, () => pending.reject(new Error(`plant ${key} clashed on insert but could not be read`)));
    }
  }

  return {
    insertIfAbsent(id, plant) {
      return new Promise<InsertResult>((resolve, reject) => {
        const copy = plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag };
        waiting.push({ id, plant: copy, deadline: performance.now() + statementTimeoutMs, settled: false, resolve, reject });
        if (expiry === undefined) expire();
        scheduleFlush();
      });
    },
    async get(id) {
      const deadline = performance.now() + statementTimeoutMs;
      const results = (await within(
        on(reader, (sql) => sql.unsafe(timed(deadline, () => `SELECT id::text AS id, name, tag FROM ${name} WHERE id = ${id}`))),
        deadline,
      )) as unknown as postgres.RowList<Row[]>[];
      // No answer about the plant, which is not an answer that it is absent.
      if (sentTooLate(results)) throw deadlineError();
      const row = Array.isArray(results[1]) ? results[1][0] : undefined;
      return row === undefined ? undefined : read(row);
    },
    async ready() {
      await within(
        on(reader, (sql) => sql.unsafe('SELECT 1')),
        performance.now() + statementTimeoutMs,
      );
    },
    async close() {
      clearTimeout(expiry);
      await endAll(5);
    },
  };
}

/** One column of the store's table as {@link shapeQuery} reads it; `column` is null for a table without columns. */
interface Column {
  readonly schema: string;
  /** The relation's `relkind`: `r` a table, `p` a partitioned table, `v` a view, `f` a foreign table… */
  readonly kind: string;
  readonly column: string | null;
  /** As `format_type` writes it, e.g. `character varying(100)`. */
  readonly type: string | null;
  /** What it holds exactly: every int64 id, or every name and tag; null for neither; `unknown` for a domain over a domain. */
  readonly holds: 'int64' | 'text' | 'unknown' | null;
  readonly not_null: boolean;
  /** A default, an identity or a generation expression: a create need not write it. */
  readonly filled: boolean;
  readonly always_identity: boolean;
  readonly generated: boolean;
  /** An index that `ON CONFLICT (id)` can use as its arbiter: unique, immediate, valid, on this column alone, whole. */
  readonly arbiter: boolean;
}

/**
 * One plain `SELECT` of the catalog (no function of its own, no temporary
 * object, nothing written: it runs through PgBouncer in transaction mode and
 * under `default_transaction_read_only`) giving each column of `table` as
 * the store's statements name it, through the `search_path`, as they do.
 * `table` is a plain lowercase identifier.
 */
function shapeQuery(table: string): string {
  // A column of a domain type is judged by the domain's base type and modifier, and filled by the domain's default;
  // a domain over a domain is not judged (holds and filled unknown: accepted). numeric's type modifier is
  // ((precision << 16) | scale) + 4; -1 when it has neither.
  return `SELECT n.nspname AS schema, c.relkind::text AS kind, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
      CASE
        WHEN b.typtype = 'd' THEN 'unknown'
        WHEN b.oid = 'pg_catalog.int8'::regtype THEN 'int64'
        WHEN b.oid = 'pg_catalog.numeric'::regtype
          AND (m.typmod = -1 OR ((m.typmod - 4) & 65535 = 0 AND (m.typmod - 4) >> 16 >= 19)) THEN 'int64'
        WHEN b.oid IN ('pg_catalog.text'::regtype, 'pg_catalog.varchar'::regtype) AND m.typmod = -1 THEN 'text'
      END AS holds,
      coalesce(a.attnotnull OR (t.typtype = 'd' AND t.typnotnull), false) AS not_null,
      coalesce(a.atthasdef OR a.attidentity <> '' OR (t.typtype = 'd' AND (t.typdefaultbin IS NOT NULL OR b.typtype = 'd')), false) AS filled,
      coalesce(a.attidentity = 'a', false) AS always_identity,
      coalesce(a.attgenerated <> '', false) AS generated,
      EXISTS (
        SELECT 1 FROM pg_catalog.pg_index i
        WHERE i.indrelid = c.oid AND i.indisunique AND i.indimmediate AND i.indisvalid
          AND i.indpred IS NULL AND i.indexprs IS NULL AND i.indnkeyatts = 1 AND i.indkey[0] = a.attnum
      ) AS arbiter
    FROM pg_catalog.pg_class c
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
    LEFT JOIN pg_catalog.pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
    LEFT JOIN LATERAL (SELECT CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END AS typmod) m ON true
    WHERE c.oid = to_regclass('"${table}"')
    ORDER BY a.attnum`;
}

/** What `pg_class.relkind` says a relation is, for those no create can be written to. */
const NOT_TABLES: Readonly<Record<string, string>> = {
  S: 'a sequence',
  i: 'an index',
  I: 'a partitioned index',
  m: 'a materialized view',
  c: 'a composite type',
  t: 'a TOAST table',
};

/**
 * Why the table {@link shapeQuery} read (made by another program, or by
 * hand) cannot hold the store's plants, or undefined when it can. Each
 * reason fails every create, or some, while the database answers: an id
 * that does not hold every int64 exactly, an id that `ON CONFLICT (id)`
 * cannot use as its arbiter or that refuses the ids written to it, a `name`
 * or `tag` that is missing or does not hold every string (a length limit),
 * a `NOT NULL` tag, and a `NOT NULL` column with no default that the store
 * does not write. What the store's own `CREATE TABLE` makes passes, and so
 * do columns it does not write that are nullable or filled by the database.
 */
function unfitTable(columns: readonly Column[]): string | undefined {
  if (columns.length === 0) return 'it is not there after the start created it';
  const { kind } = columns[0]!;
  // A view (updatable, over a table with the key) or a foreign table: its columns do not say what its writes meet, so
  // it is not judged here; what fails then fails each create.
  if (kind === 'v' || kind === 'f') return undefined;
  if (kind !== 'r' && kind !== 'p') return `it is ${NOT_TABLES[kind] ?? `a relation of kind ${kind}`}, not a table`;
  const named = new Map(columns.filter((column) => column.column !== null).map((column) => [column.column!, column]));
  const id = named.get('id');
  if (id === undefined) return 'it has no id column';
  if (id.holds !== 'int64' && id.holds !== 'unknown') return `its id column is ${id.type}, which does not hold every int64 id exactly; the store needs bigint`;
  if (id.always_identity) return 'its id column is GENERATED ALWAYS AS IDENTITY, which refuses the ids the store writes';
  if (id.generated) return 'its id column is generated, and the store writes it';
  if (!id.arbiter) {
    return "its id column has no primary key or unique index of its own (immediate, without WHERE), which the store's INSERT … ON CONFLICT (id) needs";
  }
  for (const field of ['name', 'tag']) {
    const column = named.get(field);
    if (column === undefined) return `it has no ${field} column`;
    if (column.holds !== 'text' && column.holds !== 'unknown')
      return `its ${field} column is ${column.type}, which does not hold every ${field}; the store needs text, with no length limit`;
    if (column.generated) return `its ${field} column is generated, and the store writes it`;
  }
  if (named.get('tag')!.not_null) return 'its tag column is NOT NULL, and a plant without a tag has a NULL tag';
  for (const column of named.values()) {
    if (column.column !== 'id' && column.column !== 'name' && column.column !== 'tag' && column.not_null && !column.filled) {
      return `its column ${column.column} is NOT NULL with no default, and the store writes only id, name and tag`;
    }
  }
  return undefined;
}

/** The first PostgreSQL major on which postgres.js 3.4.9 needs no query of its own to honour `target_session_attrs`. */
const REPORTS_SESSION_STATE_FROM = 140000;

/**
 * `url` without its `target_session_attrs`, and that value, when it has one
 * or the environment's `PGTARGETSESSIONATTRS` gives it, as postgres.js reads
 * them. The query string is read on its own: a multi-host URL
 * (`@db1:5432,db2:5432/…`) is no URL that `new URL` takes.
 */
function withoutTargetSessionAttrs(url: string): { readonly url: string; readonly attrs: string } | undefined {
  const query = url.indexOf('?');
  const params = new URLSearchParams(query < 0 ? '' : url.slice(query + 1));
  const given = params.get('target_session_attrs');
  // From the environment it also applies to the probe's own connection, which postgres.js gives no way to exempt.
  const attrs = given || environment('PGTARGETSESSIONATTRS');
  if (!attrs) return undefined;
  params.delete('target_session_attrs');
  const rest = params.toString();
  return { url: `${query < 0 ? url : url.slice(0, query)}${rest === '' ? '' : `?${rest}`}`, attrs };
}

/**
 * The refusal of `target_session_attrs` on a server before PostgreSQL 14
 * (`version` as `server_version_num`). There the server does not report
 * `in_hot_standby` and `default_transaction_read_only`, so postgres.js
 * 3.4.9 asks for them with a query on every new connection and drops that
 * query's promise: should it fail (the connection lost during it, the
 * function not granted), the rejection is unhandled and ends an embedding
 * process that does not handle rejections, whatever the store does. Its
 * record: QUIRKS.md, postgres-state-query-dropped.
 */
function refusalBefore14(attrs: string, version: number): Error | undefined {
  if (!(version < REPORTS_SESSION_STATE_FROM)) return undefined;
  return new Error(
    `target_session_attrs=${attrs} needs PostgreSQL 14 or later, and this is PostgreSQL ${Math.floor(version / 10000)}: there postgres.js checks each new connection with a query whose failure it leaves unhandled; list the primary alone, without target_session_attrs`,
  );
}

/** An environment variable where the runtime has `process` (Node, Bun, Deno), as postgres.js reads them. */
function environment(name: string): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}
