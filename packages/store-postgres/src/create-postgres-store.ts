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
  close(): Promise<void>;
}

const INSERTED: InsertResult = { status: 'inserted' };
// Any fixed number: every instance takes the same lock to migrate one at a time.
const MIGRATION_LOCK = 7_214_530_118;

/**
 * The storage interface on PostgreSQL, for several stateless instances over one
 * database. One table keyed by `BIGINT` (exact int64, never text or a double);
 * insert-if-absent is one `INSERT … ON CONFLICT DO NOTHING RETURNING`, and the
 * stored row is read only on a clash, so replay and conflict are decided
 * correctly however many processes race for an id.
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

  return {
    async insertIfAbsent(id, plant) {
      const inserted = await bounded(sql`
        INSERT INTO ${name} (id, name, tag)
        VALUES (${id}, ${JSON.stringify(plant.name)}, ${plant.tag === undefined ? null : JSON.stringify(plant.tag)})
        ON CONFLICT (id) DO NOTHING
        RETURNING 1`);
      if (inserted.length === 1) return INSERTED;
      const [existing] = await bounded(sql<{ name: string; tag: string | null }[]>`SELECT name, tag FROM ${name} WHERE id = ${id}`);
      // Rows are never deleted, so a clash always finds the row that won.
      if (existing === undefined) throw new Error(`plant ${id} clashed on insert but could not be read`);
      return { status: 'exists', existing: read(existing) };
    },
    async get(id) {
      const [row] = await bounded(sql<{ name: string; tag: string | null }[]>`SELECT name, tag FROM ${name} WHERE id = ${id}`);
      return row === undefined ? undefined : read(row);
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
