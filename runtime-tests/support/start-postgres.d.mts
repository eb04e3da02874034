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
  /**
   * Makes a streaming standby of this server and starts it: the primary is
   * stopped cleanly, its files copied, and started again; the copy follows it
   * with `primary_conninfo` (`application_name` = `name`, default `standby`) and
   * `settings`. Resolves once the standby accepts read-only connections. The
   * primary's own `settings` are command-line flags and do not follow it.
   */
  standby(options?: { readonly name?: string; readonly settings?: Readonly<Record<string, string>> }): Promise<TestStandby>;
  /** Stops the server and removes its data. */
  destroy(): Promise<void>;
}

/** A streaming standby of a {@link TestDatabase}, in a process of the test's own. */
export interface TestStandby {
  /** `postgres://postgres:…@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** What the standby printed so far. */
  log(): string;
  /** Promotes it (`pg_promote`) and resolves once it takes writes. */
  promote(): Promise<void>;
  /** Kills it with SIGKILL. */
  kill(): Promise<void>;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
}

/** Initialises and starts a fresh cluster of PostgreSQL `major` (default 18) on a free port, with `settings` as `-c name=value`. */
export function startPostgres(options?: { readonly settings?: Readonly<Record<string, string>>; readonly major?: 13 | 18 }): Promise<TestDatabase>;

/** A port on 127.0.0.1 free a moment ago, for a server that cannot listen on port 0 and say which it took. */
export function freePort(): Promise<number>;
