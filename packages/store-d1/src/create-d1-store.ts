import type { InsertResult, Plant, PlantStore } from '@plant-store/core';
import type { D1Database } from './d1-database.ts';

/** Options of {@link createD1Store}. */
export interface D1StoreOptions {
  /** The table; created on first use if absent. Default `plants`. */
  readonly table?: string;
}

/** A {@link PlantStore} on D1; `migrate()` creates its table ahead of the first call. */
export interface D1Store extends PlantStore {
  /**
   * Creates the table if it is absent (idempotent). Every call waits for this
   * anyway, so calling it is only needed to fail early; a failure is retried
   * by the next call.
   */
  migrate(): Promise<void>;
  /** Resolves once the table exists and D1 answers `SELECT 1`. */
  ready(): Promise<void>;
}

const INSERTED: InsertResult = { status: 'inserted' };
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

interface Row {
  readonly name: string;
  readonly tag: string | null;
}

/**
 * The storage interface on Cloudflare D1 (SQLite), for a Worker, or workerd,
 * that has a D1 binding: one table whose `INTEGER PRIMARY KEY` holds the exact
 * int64 id, so plants outlive the isolate and every isolate of a Worker sees
 * the same ones.
 *
 * D1 takes no `bigint` parameter and rounds numbers past 2^53, so ids travel
 * as decimal text, turned into integers by SQLite (`CAST(? AS INTEGER)`) and
 * read back with `CAST(id AS TEXT)`. `name` and `tag` hold JSON string
 * literals (`"Fern"`), so U+0000 and lone surrogates come back exactly.
 *
 * A create is one `INSERT … ON CONFLICT (id) DO NOTHING RETURNING`; the stored
 * row is read only on a clash, so of concurrent creates of an id exactly one
 * inserts. The table is created by an idempotent `CREATE TABLE IF NOT EXISTS`
 * run once, before the first statement; a Worker gets its binding with each
 * request, so nothing runs at construction. A D1 failure makes the call reject
 * (the client gets 503), except a full database, answered `{ status: 'full' }`
 * (507).
 *
 * @example
 * // In a Worker whose wrangler.toml binds a D1 database as DB:
 * const store = createD1Store(env.DB);
 * @throws TypeError when `db` is not a D1 binding, or `table` not a plain lowercase identifier.
 */
export function createD1Store(db: D1Database, options: D1StoreOptions = {}): D1Store {
  if (typeof (db as Partial<D1Database> | undefined)?.prepare !== 'function') {
    throw new TypeError('createD1Store: expected a D1 database binding; does the Worker configure one ([[d1_databases]] in wrangler.toml)?');
  }
  const table = options.table ?? 'plants';
  if (!/^[a-z_][a-z0-9_]*$/.test(table) || table.startsWith('sqlite_') || table.startsWith('_cf_')) {
    throw new TypeError('createD1Store: `table` must be a plain lowercase identifier, not starting with sqlite_ or _cf_');
  }
  const name = `"${table}"`;
  const create = `CREATE TABLE IF NOT EXISTS ${name} (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    tag TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  )`;
  const insert = `INSERT INTO ${name} (id, name, tag) VALUES (CAST(?1 AS INTEGER), ?2, ?3) ON CONFLICT (id) DO NOTHING RETURNING CAST(id AS TEXT) AS id`;
  const select = `SELECT name, tag FROM ${name} WHERE id = CAST(?1 AS INTEGER)`;

  let migrated: Promise<void> | undefined;
  const migrate = (): Promise<void> => {
    migrated ??= db
      .prepare(create)
      .run()
      .then(
        () => undefined,
        (error: unknown) => {
          // Not remembered: the next call tries again.
          migrated = undefined;
          throw error;
        },
      );
    return migrated;
  };
  const read = (row: Row): Plant =>
    row.tag === null ? { name: JSON.parse(row.name) as string } : { name: JSON.parse(row.name) as string, tag: JSON.parse(row.tag) as string };
  const find = async (key: string): Promise<Plant | undefined> => {
    const row = await db.prepare(select).bind(key).first<Row>();
    return row === null ? undefined : read(row);
  };

  return {
    migrate,
    async insertIfAbsent(id, plant) {
      const key = idText(id);
      await migrate();
      let inserted: { id: string } | null;
      try {
        inserted = await db
          .prepare(insert)
          .bind(key, JSON.stringify(plant.name), plant.tag === undefined ? null : JSON.stringify(plant.tag))
          .first<{ id: string }>();
      } catch (error) {
        if (/\bSQLITE_FULL\b/.test(String((error as Error | undefined)?.message))) return { status: 'full' };
        throw error;
      }
      if (inserted !== null) return INSERTED;
      const existing = await find(key);
      // Rows are never deleted, so a clash always finds the row that won.
      if (existing === undefined) throw new Error(`plant ${key} clashed on insert but could not be read`);
      return { status: 'exists', existing };
    },
    async get(id) {
      const key = idText(id);
      await migrate();
      return find(key);
    },
    async ready() {
      await migrate();
      await db.prepare('SELECT 1').first();
    },
  };
}

/** The id as the decimal text D1 is sent; D1 cannot take a `bigint`, and a number would round. */
function idText(id: bigint): string {
  if (typeof id !== 'bigint' || id < INT64_MIN || id > INT64_MAX) throw new RangeError(`createD1Store: id must be an int64 bigint, got ${String(id)}`);
  return id.toString();
}
