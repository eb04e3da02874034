/** A prepared statement, as the store uses it on every runtime. */
export interface SqliteStatement {
  /** The first row, or undefined; integer columns come back as `bigint`. */
  get(...params: readonly (string | bigint | null)[]): Record<string, unknown> | undefined;
  run(...params: readonly (string | bigint | null)[]): void;
}

/** An open database file, as the store uses it on every runtime. */
export interface SqliteConnection {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

// Module names held in variables, so that no bundler tries to resolve the
// other runtimes' modules.
const BUN_SQLITE = 'bun:sqlite';
const NODE_SQLITE = 'node:sqlite';

interface BunDatabase {
  exec(sql: string): void;
  prepare(sql: string): { get(...params: unknown[]): Record<string, unknown> | null; run(...params: unknown[]): unknown };
  close(): void;
}
interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): {
    setReadBigInts(enabled: boolean): void;
    get(...params: unknown[]): Record<string, unknown> | undefined;
    run(...params: unknown[]): unknown;
  };
  close(): void;
}

/**
 * Opens `path` with the runtime's own SQLite: `bun:sqlite` on Bun,
 * `node:sqlite` on Node 22.13+ and Deno. No native add-on is involved.
 *
 * @throws Error naming the runtime when it has no built-in SQLite (Node 20).
 */
export async function openSqlite(path: string): Promise<SqliteConnection> {
  if ((globalThis as { Bun?: unknown }).Bun !== undefined) {
    const { Database } = (await import(BUN_SQLITE)) as { Database: new (path: string, options: object) => BunDatabase };
    // safeIntegers: without it, 2^63 - 1 reads back as 9223372036854776000.
    const db = new Database(path, { create: true, safeIntegers: true, strict: true });
    return {
      exec: (sql) => db.exec(sql),
      prepare(sql) {
        const statement = db.prepare(sql);
        return { get: (...params) => statement.get(...params) ?? undefined, run: (...params) => void statement.run(...params) };
      },
      close: () => db.close(),
    };
  }
  let DatabaseSync: new (path: string) => NodeDatabase;
  try {
    ({ DatabaseSync } = (await import(NODE_SQLITE)) as { DatabaseSync: typeof DatabaseSync });
  } catch {
    const node = (globalThis as { process?: { version?: string } }).process?.version ?? 'this runtime';
    throw new Error(`SQLite needs a runtime with it built in (Node 22.13 or later, Bun or Deno); ${node} has none`);
  }
  const db = new DatabaseSync(path);
  return {
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql);
      statement.setReadBigInts(true);
      return { get: (...params) => statement.get(...params), run: (...params) => void statement.run(...params) };
    },
    close: () => db.close(),
  };
}

/** Whether this runtime has a built-in SQLite that {@link openSqlite} can use. */
export async function isSqliteAvailable(): Promise<boolean> {
  if ((globalThis as { Bun?: unknown }).Bun !== undefined) return true;
  try {
    await import(NODE_SQLITE);
    return true;
  } catch {
    return false;
  }
}
