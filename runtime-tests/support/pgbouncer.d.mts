/** A PgBouncer of the tests' own; see pgbouncer.mjs. */
export interface TestPgbouncer {
  /** Where it listens, on 127.0.0.1. */
  readonly port: number;
  /** What it printed so far. */
  output(): string;
  /** Writes a new configuration and makes it reread it (SIGHUP); resolves once it has. */
  reload(config: (at: { readonly port: number; readonly directory: string }) => string): Promise<void>;
  /** Stops it (SIGINT) and removes its directory. */
  destroy(): Promise<void>;
}

/** Where Debian's `pgbouncer` package puts the binary. */
export const DEFAULT_PGBOUNCER: string;
/** How to get PgBouncer where the tests cannot install it themselves. */
export const INSTALL_PGBOUNCER: string;
/** The PgBouncer to use (`PLANT_STORE_PGBOUNCER`, else Debian's), or undefined when there is none. */
export function findPgbouncer(): string | undefined;
/** docs/snippets/pgbouncer.ini with the test's database port, listen port and directory in place of its own. */
export function fillPgbouncerConfig(template: string, at: { readonly databasePort: number; readonly port: number; readonly directory: string }): string;
/** Starts PgBouncer with `config` and `userlist` (its auth_file) in a directory of its own; resolves once it accepts connections. */
export function startPgbouncer(options: {
  readonly config: (at: { readonly port: number; readonly directory: string }) => string;
  readonly userlist: string;
}): Promise<TestPgbouncer>;
