/** A PostgreSQL server of the tests' own; see start-postgres.mjs. */
export interface TestDatabase {
  /** `postgres://postgres:…@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** Shuts the server down cleanly (SIGINT). */
  stop(): Promise<void>;
  /** Starts it again after stop() or kill(), once it accepts connections (retried while a killed one's backends end). */
  start(): Promise<void>;
  /** Kills the postmaster with SIGKILL, as a crash would, and resolves once it is gone; its backends end by themselves. */
  kill(): Promise<void>;
  /** Stops the server and removes its data. */
  destroy(): Promise<void>;
}

/** Initialises and starts a fresh cluster on a free port, with `settings` as `-c name=value`. */
export function startPostgres(options?: { readonly settings?: Readonly<Record<string, string>> }): Promise<TestDatabase>;
