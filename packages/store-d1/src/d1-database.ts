// The part of Cloudflare D1's binding API this package uses, declared here so
// that it needs no @cloudflare/workers-types. The binding a Worker gets
// (`env.DB`), miniflare's `getD1Database()` and the types of
// @cloudflare/workers-types all fit these interfaces.

/** What D1 answers to `run()`, `all()` and each statement of `batch()`. */
export interface D1Result<T = Record<string, unknown>> {
  /** The rows, for a statement that returns any. */
  readonly results: T[];
  readonly success: boolean;
}

/**
 * A D1 statement, with its parameters once bound. Parameters may be `null`,
 * numbers (D1 rounds them past 2^53, and takes no `bigint`), strings and
 * `ArrayBuffer`s.
 */
export interface D1PreparedStatement {
  /** The statement with `values` for its `?` or `?N` parameters. */
  bind(...values: unknown[]): D1PreparedStatement;
  /** The first row, or `null` when there is none. */
  first<T = Record<string, unknown>>(): Promise<T | null>;
  /** Runs the statement. */
  run<T = Record<string, unknown>>(): Promise<D1Result<T>>;
  /** Runs the statement and answers every row. */
  all<T = Record<string, unknown>>(): Promise<D1Result<T>>;
}

/** A D1 database binding: `env.DB` in a Worker whose configuration binds one. */
export interface D1Database {
  /** A statement to bind and run. */
  prepare(query: string): D1PreparedStatement;
  /** Runs `statements` in one transaction, in order. */
  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]>;
}
