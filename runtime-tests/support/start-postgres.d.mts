/** A PostgreSQL server of the tests' own; see start-postgres.mjs. */
export interface TestDatabase {
  /** `postgres://postgres:…@127.0.0.1:<port>/postgres` */
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its data. */
  destroy(): Promise<void>;
}

/** Initialises and starts a fresh cluster on a free port. */
export function startPostgres(): Promise<TestDatabase>;
