import type { InsertResult, Plant, PlantStore } from '@plant-store/core';
import postgres from 'postgres';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** A connection URL, e.g. `postgres://user:password@127.0.0.1:5432/plants`. */
  readonly url: string;
  /** Most connections in the pool. Default 10. */
  readonly maxConnections?: number;
  /** Most time to open a connection before the create fails (503). Default 5 s. */
  readonly connectTimeoutMs?: number;
  /**
   * Most time one call may take, waiting for a connection included, before
   * its statement is cancelled and the call rejects (503). Default 4.5 s,
   * under the handler's 5 s `storeTimeoutMs`, so that the store gives up, and
   * cancels, before the handler stops waiting.
   */
  readonly statementTimeoutMs?: number;
  /** The table; created if absent. Default `plants`. */
  readonly table?: string;
}

/** A {@link PlantStore} on PostgreSQL; `close()` ends its pool. */
export interface PostgresStore extends PlantStore {
  /** Resolves once `select 1` answers, within `statementTimeoutMs` (waiting for a connection included). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const INSERTED: InsertResult = { status: 'inserted' };

interface Pending {
  readonly id: bigint;
  readonly plant: Plant;
  readonly resolve: (result: InsertResult) => void;
  readonly reject: (error: unknown) => void;
}
// Any fixed number: every instance takes the same lock to migrate one at a time.
const MIGRATION_LOCK = 7_214_530_118;

/**
 * The storage interface on PostgreSQL, for several stateless instances over one
 * database. One table keyed by `BIGINT` (exact int64, never text or a double);
 * insert-if-absent is `INSERT … ON CONFLICT DO NOTHING RETURNING`, and the
 * stored row is read only on a clash, so replay and conflict are decided
 * correctly however many processes race for an id. Creates that arrive
 * together (one turn of the event loop) share one statement and one commit.
 *
 * `name` and `tag` hold JSON string literals (`"Fern"`): PostgreSQL text cannot
 * hold U+0000 or lone surrogates, which are valid JSON strings and must come
 * back exactly.
 *
 * The table is created at start by an idempotent migration. A database that is
 * down or slow makes calls reject (the client gets 503) until it is back; the
 * pool reconnects by itself.
 *
 * @example
 * const store = await createPostgresStore({ url: process.env.PLANT_STORE_DATABASE_URL! });
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const table = options.table ?? 'plants';
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new TypeError('createPostgresStore: `table` must be a plain lowercase identifier');
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const statementTimeoutMs = options.statementTimeoutMs ?? 4_500;
  const sql = postgres(options.url, {
    max: options.maxConnections ?? 10,
    connect_timeout: Math.ceil(connectTimeoutMs / 1000),
    idle_timeout: 60,
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
    connection: { statement_timeout: statementTimeoutMs, application_name: 'plant-store' },
  });
  const name = sql(table);
  // The driver retries a host that never answers for far longer than its
  // connect timeout; the start must fail within it, with a clear reason.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unreachable = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${connectTimeoutMs} ms`)), connectTimeoutMs);
  });
  try {
    await Promise.race([
      unreachable,
      sql.begin(async (migration) => {
        await migration`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
        await migration`CREATE TABLE IF NOT EXISTS ${name} (
          id BIGINT PRIMARY KEY,
          name TEXT NOT NULL,
          tag TEXT,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`;
      }),
    ]);
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw error;
  } finally {
    clearTimeout(timer);
  }

  /**
   * `query`, cancelled when it takes longer than `statementTimeoutMs`: a
   * create queued while the database is out of reach must not be sent, and
   * commit, long after its client was told 503.
   */
  function bounded<T extends readonly postgres.MaybeRow[]>(query: postgres.PendingQuery<T>): Promise<postgres.RowList<T>> {
    const deadline = setTimeout(() => query.cancel(), statementTimeoutMs);
    return query.finally(() => clearTimeout(deadline));
  }

  const read = (row: { name: string; tag: string | null }): Plant =>
    row.tag === null ? { name: JSON.parse(row.name) as string } : { name: JSON.parse(row.name) as string, tag: JSON.parse(row.tag) as string };

  let queue: Pending[] = [];

  /**
   * Stores every create queued in the last turn with one statement, one
   * round trip and one commit (group commit), then answers each. The first
   * create of an id in the batch goes to the database; later ones of the same
   * id are answered from its outcome, as they would be one after the other.
   */
  async function flush(): Promise<void> {
    const batch = queue;
    queue = [];
    const first = new Map<bigint, Pending>();
    for (const pending of batch) if (!first.has(pending.id)) first.set(pending.id, pending);
    try {
      const creates = [...first.values()];
      const inserted = await bounded(sql<{ id: string }[]>`
        INSERT INTO ${name} (id, name, tag)
        SELECT * FROM unnest(
          ${sql.array(creates.map((pending) => String(pending.id)))}::bigint[],
          ${sql.array(creates.map((pending) => JSON.stringify(pending.plant.name)))}::text[],
          ${sql.array(creates.map((pending) => (pending.plant.tag === undefined ? null : JSON.stringify(pending.plant.tag))) as string[])}::text[]
        )
        ON CONFLICT (id) DO NOTHING
        RETURNING id::text AS id`);
      const stored = new Set(inserted.map((row) => row.id));
      const clashed = creates.filter((pending) => !stored.has(String(pending.id)));
      const existing = new Map<string, Plant>();
      if (clashed.length > 0) {
        const rows = await bounded(sql<{ id: string; name: string; tag: string | null }[]>`
          SELECT id::text AS id, name, tag FROM ${name} WHERE id = ANY(${sql.array(clashed.map((pending) => String(pending.id)))}::bigint[])`);
        for (const row of rows) existing.set(row.id, read(row));
      }
      for (const pending of batch) {
        const key = String(pending.id);
        const winner = first.get(pending.id)!;
        if (pending === winner && stored.has(key)) pending.resolve(INSERTED);
        else {
          // Rows are never deleted, so a clash always finds the row that won.
          const plant = stored.has(key) ? winner.plant : existing.get(key);
          if (plant === undefined) pending.reject(new Error(`plant ${key} clashed on insert but could not be read`));
          else pending.resolve({ status: 'exists', existing: plant });
        }
      }
    } catch (error) {
      // One statement: when it failed, none of the batch was stored, unless the
      // connection broke after the commit (the 503 message allows for that).
      for (const pending of batch) pending.reject(error);
    }
  }

  return {
    insertIfAbsent(id, plant) {
      return new Promise<InsertResult>((resolve, reject) => {
        if (queue.length === 0) setImmediate(() => void flush());
        queue.push({ id, plant: plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag }, resolve, reject });
      });
    },
    async get(id) {
      const [row] = await bounded(sql<{ name: string; tag: string | null }[]>`SELECT name, tag FROM ${name} WHERE id = ${id}`);
      return row === undefined ? undefined : read(row);
    },
    async ready() {
      await bounded(sql`SELECT 1`);
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
