import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Miniflare } from 'miniflare';
import { readStandaloneConfig } from './read-standalone-config.ts';
import { SHUTDOWN_TIMINGS } from './shutdown-timings.ts';
import { formatLogRecords } from './format-log-records.ts';
import { startupRecords } from './startup-lines.ts';

/** Where `runWorkerd` keeps its D1 database unless `PLANT_STORE_D1_DIR` says otherwise, under the working directory. */
export const DEFAULT_D1_DIR = '.plant-store/d1';

const COMPATIBILITY_DATE = '2026-07-01';

/**
 * The Worker on the served socket. workerd's HTTP server takes a request with
 * both `Content-Length` and `Transfer-Encoding` as chunked and keeps the
 * connection open, so a request hidden after the chunked end would run next
 * (RFC 9112 §6.1: the connection must be closed). Throwing makes workerd
 * answer its own 500 with `Connection: close` and close the connection, so
 * nothing behind that request runs. Everything else goes to the Worker as it
 * came.
 */
const GUARD_WORKER = `export default {
  fetch(request, env) {
    if (request.headers.has('transfer-encoding') && request.headers.has('content-length')) {
      throw new Error('plant-store: refused a request with both Content-Length and Transfer-Encoding and closed its connection');
    }
    return env.PLANT_STORE.fetch(request);
  },
};
`;

const MEMORY_WARNING = 'plant-store: plants are kept in memory, per isolate, and lost when workerd stops; unset PLANT_STORE_DATABASE_URL to keep them in D1';

/**
 * Serves a Plant Store Worker standalone on workerd through miniflare
 * (`pnpm start:workerd`). The variables are read here and handed to the Worker
 * as bindings; a generated token is made here, so that it is printed at start
 * like on every other runtime. Plants are kept in a D1 database bound as
 * `PLANT_STORE_DB`, persisted in the directory `PLANT_STORE_D1_DIR` (default
 * `.plant-store/d1` under the working directory, created if absent), so they
 * survive restarts; `PLANT_STORE_DATABASE_URL=memory:` keeps them in the
 * isolate's memory instead, and asking for SQLite or PostgreSQL stops the
 * start. SIGINT/SIGTERM stop workerd and exit 0.
 *
 * HOST:PORT is a socket of workerd's own HTTP server, as a self-hosted
 * `workerd serve` config would have it, bound to a small guard Worker
 * (`GUARD_WORKER`) that hands every request to the Worker through a service
 * binding. miniflare's entry Worker (its development router: it serves
 * `/cdn-cgi/…`, obeys `MF-…` headers, rewrites `Accept-Encoding` and
 * compresses answers) only listens on a free loopback port that nothing
 * announces. miniflare still makes the socket read an `MF-CF-Blob` header as
 * the request's `cf` object (not JSON: workerd's 500). If workerd dies (it
 * exits when it runs out of file descriptors), miniflare starts it again on
 * the same port and a line says so; plants in D1 are still there.
 */
export async function runWorkerd(scriptPath: string, bindings: Record<string, string> = {}): Promise<void> {
  const config = readStandaloneConfig(process.env);
  const d1Dir = config.store.kind === 'memory' ? undefined : openD1Dir(config.store.kind);
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Set(signals.flatMap((signal) => process.listeners(signal)));
  const miniflare = new Miniflare({
    // miniflare's entry socket, with its router Worker in front: loopback only, a free port, unused.
    host: '127.0.0.1',
    port: 0,
    ...(d1Dir === undefined ? {} : { d1Persist: d1Dir }),
    unsafeHandleRuntimeRestart: () => {
      const msg = `plant-store: workerd stopped unexpectedly and was started again on the same port; ${d1Dir === undefined ? 'plants kept in memory were lost' : 'plants in D1 are kept'}`;
      console.error(formatLogRecords([{ level: 'error', msg }], config.logFormat));
    },
    workers: [
      {
        // The served socket: workerd's HTTP server, straight to the guard, which hands requests to the Worker.
        name: 'plant-store-guard',
        modules: true,
        script: GUARD_WORKER,
        compatibilityDate: COMPATIBILITY_DATE,
        serviceBindings: { PLANT_STORE: 'plant-store' },
        unsafeDirectSockets: [{ host: config.host, port: config.port }],
      },
      {
        name: 'plant-store',
        modules: true,
        scriptPath,
        compatibilityDate: COMPATIBILITY_DATE,
        bindings: {
          ...bindings,
          PLANT_STORE_TOKENS: config.generatedToken ?? process.env['PLANT_STORE_TOKENS'] ?? '',
          PLANT_STORE_ACCESS_LOG: config.accessLog ? 'on' : 'off',
          // As read here, so that the Worker cannot disagree with what was checked at start.
          PLANT_STORE_LOG_FORMAT: config.logFormat,
          PLANT_STORE_CORS_ORIGINS: config.corsOrigins === '*' ? '*' : config.corsOrigins.join(','),
          PLANT_STORE_DOCS: config.docs ? 'on' : 'off',
        },
        // The database id names its file in d1Dir: a fixed one finds the same plants at every start.
        ...(d1Dir === undefined ? {} : { d1Databases: { PLANT_STORE_DB: 'plant-store' } }),
      },
    ],
  });
  // miniflare's own signal hooks exit with 130/143 at once; ours give requests
  // in flight a moment, then exit 0, and miniflare's exit hook stops workerd.
  // (Its async dispose() is not awaited: it can hang when called early.)
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) if (!before.has(listener)) process.removeListener(signal, listener);
    process.once(signal, () => setTimeout(() => process.exit(0), SHUTDOWN_TIMINGS.graceMs));
  }
  await miniflare.ready;
  const url = await miniflare.unsafeGetDirectURL('plant-store-guard');
  const store = d1Dir === undefined ? { description: 'memory', warning: MEMORY_WARNING } : { description: `d1 at ${d1Dir}` };
  console.log(formatLogRecords(startupRecords(config, url.origin, store), config.logFormat));
}

/**
 * The directory of the D1 database, created if absent.
 *
 * @throws Error naming the variable when `PLANT_STORE_DATABASE_URL` asks for a store workerd cannot open, or the directory cannot be made.
 */
function openD1Dir(kind: 'default' | 'sqlite' | 'postgres'): string {
  if (kind !== 'default') {
    throw new TypeError(
      `PLANT_STORE_DATABASE_URL: workerd keeps plants in D1 (PLANT_STORE_D1_DIR) or, with memory:, in memory; ${kind} is not available there`,
    );
  }
  const dir = resolve(process.env['PLANT_STORE_D1_DIR']?.trim() || DEFAULT_D1_DIR);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new Error(`PLANT_STORE_D1_DIR: cannot create ${dir}: ${(error as Error).message}`);
  }
  lockD1Dir(dir);
  return dir;
}

/**
 * Claims `dir` for this process with a `server.pid` file, removed at exit. Two
 * workerd processes on one D1 file lock each other out (SQLITE_BUSY: most
 * creates would answer 503), so a second server refuses to start instead. A
 * file left by a process that no longer runs is taken over.
 *
 * @throws Error naming the directory and the process that holds it.
 */
function lockD1Dir(dir: string): void {
  const lock = join(dir, 'server.pid');
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      process.once('exit', () => {
        try {
          if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
        } catch {
          // Already gone.
        }
      });
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw new Error(`PLANT_STORE_D1_DIR: cannot write ${lock}: ${(error as Error).message}`);
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(lock, 'utf8').trim());
    } catch {
      // Removed in between: try again.
    }
    if (attempt > 0 || (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder))) {
      throw new Error(
        `PLANT_STORE_D1_DIR: ${dir} is in use by another plant-store server (pid ${holder}); give each server its own directory, or remove ${lock} if none runs`,
      );
    }
    rmSync(lock, { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
