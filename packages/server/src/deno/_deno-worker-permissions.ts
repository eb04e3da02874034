// Runs on Deno: the supervisor of a Deno server with PLANT_STORE_WORKERS.
import { dirname, resolve } from 'node:path';
import { DEFAULT_DATA_DIR } from '../launcher/_open-store.ts';
import type { StandaloneConfig } from '../common/read-standalone-config.ts';
import { WORKER_OF } from '../common/_standalone-variables.ts';

type Descriptor =
  | { readonly name: 'net'; readonly host?: string }
  | { readonly name: 'env'; readonly variable?: string }
  | { readonly name: 'read' | 'write'; readonly path?: string }
  | { readonly name: 'sys' };

declare const Deno: { permissions: { querySync(descriptor: Descriptor): { readonly state: string } } };

const granted = (descriptor: Descriptor) => Deno.permissions.querySync(descriptor).state === 'granted';

/**
 * The permission flags of `deno run` for the other processes of a Deno
 * server with `PLANT_STORE_WORKERS`: what the server uses, as far as this
 * process was granted it, and never more (Deno does not tell a process the
 * flags it was started with). A permission granted whole (`--allow-net`)
 * is passed on whole; otherwise only its parts the server uses: the
 * address it listens on, the database's host and the JWKS URL's host
 * (`PLANT_STORE_JWKS_URL`), the variables it reads,
 * the SQLite file (or the default store's directory), and the directories of
 * the TLS certificate and key, read only. Each may also
 * read `PLANT_STORE_WORKER_OF`, which marks it as a worker.
 *
 * @param variables The environment variables the server reads.
 */
export function denoWorkerPermissions(config: StandaloneConfig, variables: readonly string[]): string[] {
  const flags = ['--no-prompt'];
  const pass = (name: 'net' | 'env' | 'read' | 'write', key: string, wanted: readonly string[], always: readonly string[] = []) => {
    if (granted({ name } as Descriptor)) {
      flags.push(`--allow-${name}`);
      return;
    }
    // A comma would split the value in two in the flag.
    const parts = wanted.filter((value) => !value.includes(',') && granted({ name, [key]: value } as Descriptor));
    if (parts.length + always.length > 0) flags.push(`--allow-${name}=${[...new Set([...parts, ...always])].join(',')}`);
  };
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  pass('net', 'host', [host, `${host}:${config.port}`, ...databaseHosts(config), ...urlHosts(config.jwt?.jwksUrl)]);
  // postgres.js reads a PG… variable for every option it is not given.
  pass('env', 'variable', [...variables, 'PG*'], [WORKER_OF]);
  const files = storeFiles(config);
  pass('read', 'path', [...files, ...tlsDirectories(config)]);
  pass('write', 'path', files);
  if (granted({ name: 'sys' })) flags.push('--allow-sys');
  return flags;
}

/** The database server's host, with and without its port, for `--allow-net`. */
function databaseHosts({ store }: StandaloneConfig): string[] {
  if (store.kind === 'postgres') return urlHosts(store.url);
  return store.kind === 'rqlite' ? store.urls.flatMap(urlHosts) : [];
}

/** A URL's host, with and without its port, for `--allow-net`; none for no URL or one that does not parse. */
function urlHosts(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const url = new URL(text);
    return [url.hostname, url.host];
  } catch {
    return [];
  }
}

/** The directories the TLS certificate and key are read and watched in (Deno checks a link's own path, not its target's). */
function tlsDirectories({ tls }: StandaloneConfig): string[] {
  return tls === undefined ? [] : [tls.certPath, tls.keyPath].map((path) => dirname(resolve(path)));
}

/** The files SQLite opens (the database, its write-ahead log and shared memory), or the default store's directory. */
function storeFiles({ store }: StandaloneConfig): string[] {
  switch (store.kind) {
    case 'default':
      return [DEFAULT_DATA_DIR];
    case 'sqlite':
      return ['', '-wal', '-shm', '-journal'].map((suffix) => `${store.path}${suffix}`);
    default:
      return [];
  }
}
