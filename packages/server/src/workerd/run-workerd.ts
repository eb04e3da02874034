// Runs on Node: the standalone workerd launcher, which starts workerd through miniflare and serves in front of it.
import { lstatSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { createNodeHandlerWithIds } from '@plant-store/adapter-node/internal';
import { createOverloadGate, createPlantMetrics, DEFAULT_MAX_BODY_BYTES } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { Miniflare, type MiniflareOptions } from 'miniflare';
import { d1DatabaseFile } from './_d1-database-file.ts';
import { d1FileWatch } from './_d1-file-watch.ts';
import { failedRestartLog } from './_failed-restart-log.ts';
import { STUCK_AFTER_MS, stuckStoreWatch } from './_stuck-store-watch.ts';
import { explainListenError } from '../common/_explain-listen-error.ts';
import { gateFront } from './_gate-front.ts';
import { defaultWorkerdBinary, workerdDyingWithFront } from './_workerd-dying-with-front.ts';
import { proxyToWorker } from './_proxy-to-worker.ts';
import { workerdV8Flags } from './_workerd-v8-flags.ts';
import { recordRequestId } from '../node-http/_request-ids.ts';
import { serveNodeHttp } from '../node-http/serve-node-http.ts';
import { reportWriteTimeouts } from '../node-http/report-write-timeouts.ts';
import { standaloneHandlerOptions } from '../common/_standalone-handler-options.ts';
import type { JwtSettings } from '../common/_parse-jwt-settings.ts';
import { readStandaloneConfig } from '../common/read-standalone-config.ts';
import { formatLogRecords } from '../common/_format-log-records.ts';
import { writeLogRecords } from '../common/_write-log-records.ts';
import { keepTlsPairFresh, readTlsPair } from '../launcher/_tls-pair.ts';
import { startupRecords } from '../common/startup-lines.ts';
import { openStore } from '../launcher/_open-store.ts';
import { warnUnknownVariables } from '../launcher/_warn-unknown-variables.ts';
import { whyNoDirectory } from '../launcher/_why-no-directory.ts';

/** Where `runWorkerd` keeps its D1 database unless `PLANT_STORE_D1_DIR` says otherwise, under the working directory. */
export const DEFAULT_D1_DIR = '.plant-store/d1';

const COMPATIBILITY_DATE = '2026-07-01';
/** The D1 database's id: it names the database's file in the D1 directory, so a fixed one finds the same plants at every start. */
const D1_DATABASE_ID = 'plant-store';

/** How long after miniflare gave up on workerd it is started again here, and the longest wait between later tries. */
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
const MEMORY_WARNING = 'plant-store: plants are kept in memory, per isolate, and lost when workerd stops; unset PLANT_STORE_DATABASE_URL to keep them in D1';

/**
 * Serves a Plant Store Worker standalone on workerd through miniflare
 * (`pnpm start:workerd`). The variables are read here and handed to the Worker
 * as bindings; a generated token is made here, so that it is printed at start
 * like on every other runtime. Plants are kept in a D1 database bound as
 * `PLANT_STORE_DB`, persisted in the directory `PLANT_STORE_D1_DIR` (default
 * `.plant-store/d1` under the working directory, created if absent), so they
 * survive restarts; while the database's file is removed or replaced under a
 * running workerd, creates and `/readyz` are answered 503 (1501), as on the
 * SQLite store ({@link d1FileWatch}). `PLANT_STORE_DATABASE_URL=memory:` keeps them in the
 * isolate's memory instead, `rqlite://…` on that cluster (reached by the
 * Worker's own `fetch`, and checked here at start), and asking for SQLite or
 * PostgreSQL stops the start.
 *
 * HOST:PORT is the `node:http` server of {@link serveNodeHttp} in this
 * process, the one the standalone Node server runs, in front of workerd:
 * workerd's own HTTP server keeps connections open after `Connection: close`,
 * has no header, body or idle timeouts, answers malformed framing with a
 * plain-text 500, and exits when it runs out of file descriptors. The front
 * reads, times and refuses requests exactly as on Node (Error bodies, access
 * log), and passes the rest to the Worker ({@link proxyToWorker}) on a
 * loopback socket of workerd's own, over at most 256 connections. miniflare's
 * entry Worker (its development router) only listens on a free loopback port
 * that nothing announces. If workerd dies all the same, miniflare starts it
 * again on the same port and a line says so; plants in D1 are still there,
 * and requests meanwhile get 503 (1501). SIGINT/SIGTERM drain the front as on
 * Node, then exit 0 (miniflare's exit hook stops workerd). workerd runs with a
 * small young generation (`--max-semi-space-size=2`), put before this
 * process's `MINIFLARE_WORKERD_V8_FLAGS`, which is left set to both.
 *
 * A `PLANT_STORE_*` variable it does not read gets a warning first. It
 * rejects, for the caller to stop the start with one line, when a setting
 * cannot work, the D1 directory cannot be made (the line names
 * `PLANT_STORE_D1_DIR`, and says when it is the default place), or the front
 * cannot listen (the line names `HOST` or `PORT`).
 */
export async function runWorkerd(scriptPath: string, bindings: Record<string, string> = {}): Promise<void> {
  warnUnknownVariables(Object.keys(process.env), 'workerd', process.env);
  const config = readStandaloneConfig(process.env);
  // Before workerd starts: a pair that cannot serve stops the start at once.
  const tls = config.tls === undefined ? undefined : readTlsPair(config.tls);
  // SIGHUP rereads the pair once serving; until then it must not end the process.
  if (tls !== undefined) process.on('SIGHUP', () => {});
  // The Worker reaches an rqlite cluster itself; checked here first, as the other launchers check theirs at start.
  const rqlite = config.store.kind === 'rqlite' ? (await openStore(config.store)).description : undefined;
  const d1Dir = config.store.kind === 'memory' || config.store.kind === 'rqlite' ? undefined : openD1Dir(config.store.kind);
  const d1File = d1Dir === undefined ? undefined : d1DatabaseFile(d1Dir, D1_DATABASE_ID);
  if (d1File !== undefined) refuseLinkedD1File(d1File);
  // Where plants are kept, for the startup line and for the line after a restart of workerd.
  const place =
    rqlite !== undefined
      ? { description: rqlite, afterRestart: 'plants in rqlite are kept' }
      : d1Dir === undefined
        ? { description: 'memory', warning: MEMORY_WARNING, afterRestart: 'plants kept in memory were lost' }
        : { description: `d1 at ${d1Dir}`, afterRestart: 'plants in D1 are kept' };
  // Left set: miniflare reads it again when it starts a workerd that died.
  process.env['MINIFLARE_WORKERD_V8_FLAGS'] = workerdV8Flags(process.env['MINIFLARE_WORKERD_V8_FLAGS']);
  // workerd ends with the front however the front ends (workerd/QUIRKS.md, workerd-outlives-front); left set too.
  const dying = workerdDyingWithFront(process.env['MINIFLARE_WORKERD_PATH'] || defaultWorkerdBinary());
  if (dying !== undefined) {
    process.env['MINIFLARE_WORKERD_PATH'] = dying.path;
    process.on('exit', dying.remove);
  }
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Set(signals.flatMap((signal) => process.listeners(signal)));
  const errorLine = (msg: string) => console.error(formatLogRecords([{ level: 'error', msg }], config.logFormat));
  // Set once the front drains: workerd is not started again then.
  let stopping = false;
  // D1's file, removed or replaced under workerd, which goes on writing to the file it has open: creates and /readyz
  // are refused meanwhile, as the SQLite store refuses them (_d1-file-watch.ts). A workerd started again opens the
  // file of that name, which the watch then adopts.
  const fileWatch = d1File === undefined ? undefined : d1FileWatch({ path: d1File, say: errorLine });
  // Starts workerd again with the same options (the same ports): `done` is said once it serves; if it does not, it is
  // tried again after `retryInMs`, the line saying `why` it was started. The one place the launcher restarts workerd
  // (a failed restart, a D1 that stays broken).
  const restart = (done: string, why: string, retryInMs = FIRST_RESTART_DELAY_MS): Promise<void> =>
    miniflare.setOptions(options).then(
      () => {
        fileWatch?.reopened();
        errorLine(done);
      },
      (error: unknown) => {
        startAgain(retryInMs, why);
        throw error;
      },
    );
  // miniflare starts workerd again after a crash, but gives up for good when that one dies as it starts: then it is
  // started here after 1 s, then 2, 4, up to 30 s between tries. So is one the D1 watch started that did not start.
  const startAgain = (delayMs: number, why: string) => {
    if (stopping) return;
    errorLine(`plant-store: workerd did not start again ${why}; trying again in ${delayMs / 1000} s`);
    setTimeout(() => {
      if (stopping) return;
      restart(`plant-store: workerd was started again on the same port; ${place.afterRestart}`, why, Math.min(delayMs * 2, MAX_RESTART_DELAY_MS)).catch(
        () => {},
      );
    }, delayMs).unref();
  };
  const options: MiniflareOptions = {
    // miniflare's entry socket, with its router Worker in front: loopback only, a free port, unused.
    host: '127.0.0.1',
    port: 0,
    ...(d1Dir === undefined ? {} : { d1Persist: d1Dir }),
    unsafeHandleRuntimeRestart: () => {
      fileWatch?.reopened();
      errorLine(`plant-store: workerd stopped unexpectedly and was started again on the same port; ${place.afterRestart}`);
    },
    log: failedRestartLog(() => startAgain(FIRST_RESTART_DELAY_MS, 'after it stopped unexpectedly')),
    workers: [
      {
        name: 'plant-store',
        modules: true,
        scriptPath,
        // Module names are paths relative to this root, and workerd refuses one with `..` in it: rooted at the
        // working directory (miniflare's default), a launcher started outside the script's tree could not start.
        modulesRoot: dirname(resolve(scriptPath)),
        compatibilityDate: COMPATIBILITY_DATE,
        // workerd's HTTP server, straight to the Worker, on loopback: only the front speaks to it.
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
        bindings: {
          ...bindings,
          ...(config.jwt === undefined ? { PLANT_STORE_TOKENS: config.generatedToken ?? process.env['PLANT_STORE_TOKENS'] ?? '' } : jwtBindings(config.jwt)),
          // The front writes the access log, refusals included.
          PLANT_STORE_ACCESS_LOG: 'off',
          // As read here, so that the Worker cannot disagree with what was checked at start.
          PLANT_STORE_LOG_FORMAT: config.logFormat,
          PLANT_STORE_CORS_ORIGINS: config.corsOrigins === '*' ? '*' : config.corsOrigins.join(','),
          PLANT_STORE_DOCS: config.docs ? 'on' : 'off',
          PLANT_STORE_METRICS: config.metrics ? 'on' : 'off',
          // The front bounds the load (gateFront), where time passes: the Worker's own bound, past the
          // front's, never refuses, and is kept only so that its document declares the front's 503 (1503).
          PLANT_STORE_MAX_IN_FLIGHT: config.overload === undefined ? '0' : '999999999',
          PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS: '0',
          PLANT_STORE_RATE_LIMIT: config.rateLimit === undefined ? 'off' : `${config.rateLimit.limit}/${config.rateLimit.windowSeconds}`,
          // The Worker reaches the rqlite cluster itself, with its own fetch.
          ...(rqlite === undefined ? {} : { PLANT_STORE_DATABASE_URL: process.env['PLANT_STORE_DATABASE_URL'] ?? '' }),
        },
        ...(d1Dir === undefined ? {} : { d1Databases: { PLANT_STORE_DB: D1_DATABASE_ID } }),
      },
    ],
  };
  const miniflare = new Miniflare(options);
  // miniflare's own signal hooks exit with 130/143 at once; ours drain the
  // front first, then exit 0, and miniflare's exit hook stops workerd.
  // (Its async dispose() is not awaited: it can hang when called early.)
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) if (!before.has(listener)) process.removeListener(signal, listener);
  }
  await miniflare.ready;
  const direct = await miniflare.unsafeGetDirectURL('plant-store');
  // Methods the Worker has no route for are answered here, by a handler with its routes and options (405 on a route, 404 elsewhere); it never reaches a store.
  // It records the id of each answer for the front's access log, as serve() does on Node.
  // With the overload bounds, it also answers what the gate refuses, over the same gate.
  const gate = config.overload === undefined ? undefined : createOverloadGate(config.overload);
  // What it answers itself is counted here and added to the Worker's scrape, so that /metrics counts every answer, as on Node.
  const frontMetrics = config.metrics ? createPlantMetrics() : undefined;
  const localOptions = standaloneHandlerOptions(config, {
    store: createMemoryStore(),
    authenticate: config.authenticate,
    ...(frontMetrics === undefined ? {} : { metrics: frontMetrics }),
  });
  const local = createNodeHandlerWithIds(gate === undefined ? localOptions : { ...localOptions, overload: gate }, recordRequestId);
  // The docs files are answered here as well, by the same core and options as the Worker's (see isDocsRequest).
  // D1 that failed a write keeps failing until workerd starts again (_stuck-store-watch.ts): with D1, the Worker's
  // answers to /readyz are watched, and a refused create has the front ask /readyz itself (once a second at most).
  const watch =
    d1Dir === undefined
      ? undefined
      : stuckStoreWatch({
          restart: () =>
            restart(`plant-store: D1 kept failing for ${STUCK_AFTER_MS / 1000} s or more; workerd was started again to open it afresh`, 'to open D1 afresh'),
        });
  let probedAt = 0;
  const probeReadiness = () => {
    const at = Date.now();
    if (at - probedAt < 1_000) return;
    probedAt = at;
    httpGet(new URL('/readyz', direct), (answer) => {
      answer.resume();
      watch?.answered(answer.statusCode ?? 0);
    }).on('error', () => {});
  };
  const proxy = proxyToWorker({ host: direct.hostname, port: Number(direct.port) }, local, DEFAULT_MAX_BODY_BYTES, {
    docs: config.docs,
    ...(frontMetrics === undefined ? {} : { frontMetrics: () => frontMetrics.expose() }),
    ...(watch === undefined
      ? {}
      : { onStoreAnswer: (status: number, readiness: boolean) => (readiness ? watch.answered(status) : status === 503 && probeReadiness()) }),
    ...(fileWatch === undefined ? {} : { overrule: fileWatch.overrule }),
  });
  const running = await serveNodeHttp(
    gate === undefined ? proxy.handler : gateFront(gate, proxy, local),
    {
      host: config.host,
      port: config.port,
      logFormat: config.logFormat,
      writeTimeoutMs: config.writeTimeoutMs,
      onWriteTimeout: reportWriteTimeouts(config),
      // Access-log lines are written at level info.
      ...(config.accessLog ? {} : { accessLog: false as const }),
      // With TLS, HTTP/2 beside HTTP/1.1, as on Node: the front is Node's server, the Worker behind it is reached over HTTP/1.1.
      ...(tls === undefined ? {} : { tls: tls.pair, http2: true }),
    },
    true,
  ).catch((error: unknown) => {
    throw explainListenError(error, config.host, config.port);
  });
  // On every signal, not once, as on Node (run-node.ts): a second SIGINT passed on by npm or pnpm must not end the drain.
  for (const signal of signals) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      watch?.stop();
      // As serve() says it on Node: the scrape's plant_store_draining is 1 from now on (the front's counts' is the larger).
      frontMetrics?.setDraining(true);
      void running.close().then(() => {
        proxy.close();
        process.exit(0);
      });
    });
  }
  // The signals whose default is to end the process at once, exit hooks unrun, which would leave workerd running
  // without its front: the process ends as a shell reports such a signal (128 + its number), and miniflare's exit
  // hook stops workerd. (SIGHUP rereads the TLS pair when there is one.)
  for (const [signal, number] of [...(tls === undefined ? [['SIGHUP', 1] as const] : []), ['SIGQUIT', 3], ['SIGUSR2', 12]] as const) {
    process.on(signal, () => process.exit(128 + number));
  }
  keepTlsPairFresh(config, tls, running);
  writeLogRecords([...startupRecords(config, running.url, place), ...(tls?.warnings ?? [])], config);
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
  const given = process.env['PLANT_STORE_D1_DIR']?.trim();
  const dir = resolve(given || DEFAULT_D1_DIR);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    // Unset, the user may not know of .plant-store at all: say it is the default, and the ways out.
    throw new Error(
      given
        ? `PLANT_STORE_D1_DIR: cannot use ${dir}: ${whyNoDirectory(dir, error)}; set PLANT_STORE_D1_DIR to a directory this process can create`
        : `PLANT_STORE_D1_DIR: unset, so plants go to the default D1 directory ${dir}, but ${whyNoDirectory(dir, error)}; ` +
            'set PLANT_STORE_D1_DIR=PATH to keep them in another directory, or PLANT_STORE_DATABASE_URL=memory: to keep them in memory',
    );
  }
  lockD1Dir(dir);
  return dir;
}

/**
 * Stops the start when D1's database file is a symbolic link: workerd opens
 * no database through one, and would answer every create 503 (SQLITE_CANTOPEN)
 * for good.
 *
 * @throws Error naming the variable and the file.
 */
function refuseLinkedD1File(file: string): void {
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
    throw new Error(
      `PLANT_STORE_D1_DIR: the D1 database ${file} is a symbolic link, which workerd does not open; put the file it leads to there, with its -wal and -shm`,
    );
  }
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

/** The JWT settings as the Worker reads them again; the JWKS is fetched by the Worker itself, through workerd's outbound network. */
function jwtBindings(jwt: JwtSettings): Record<string, string> {
  return {
    PLANT_STORE_JWT_ISSUER: jwt.issuer,
    PLANT_STORE_JWT_AUDIENCE: jwt.audience.join(','),
    PLANT_STORE_JWKS_URL: jwt.jwksUrl,
    PLANT_STORE_JWKS_COOLDOWN: String(jwt.cooldownSeconds),
    ...(jwt.scope === undefined ? {} : { PLANT_STORE_JWT_SCOPE: jwt.scope }),
  };
}
