// `pnpm bench`: interleaved rounds of wrk against every contender, each on a
// fresh server pinned to core 0 with wrk on core 1; medians, and each
// contender's ratio to its runtime's hand-written baseline in the same round.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkBehaviour } from './behaviour.mjs';
import { startPostgres } from '@plant-store/runtime-tests/start-postgres';
import { fillPgbouncerConfig, findPgbouncer, INSTALL_PGBOUNCER, startPgbouncer } from '../runtime-tests/support/pgbouncer.mjs';
import { CHECKS_ROW, DECISIONS_HEADING, IN_PROCESS_HEADING, NODE_RUNTIMES, renderDecisions, renderInProcessSection, renderReport } from './report.mjs';

/** @typedef {import('./report.mjs').Row} Row */
/**
 * A server to measure.
 * @typedef {object} Contender
 * @property {string} name
 * @property {string} runtime
 * @property {boolean} [baseline] whether it is its runtime's hand-written baseline
 * @property {string} [against] the contender of the same runtime its ratios are taken against, when not the runtime's baseline
 * @property {string} [peer] the peer of the same runtime this Plant Store row is held to (req/s at least the peer's, round by round)
 * @property {[string, ...string[]]} command the binary and its arguments
 * @property {Record<string, string>} [env] more environment variables
 * @property {'memory' | 'sqlite' | 'postgres' | 'pgbouncer'} [store] where Plant Store keeps plants (default memory); `pgbouncer` is the same PostgreSQL through PgBouncer in transaction mode
 * @property {string} [cpus] the cores the server may use (taskset list; default core 0)
 * @property {boolean} [tls] served over HTTPS (`PLANT_STORE_TLS_CERT`, `PLANT_STORE_TLS_KEY`) with the run's own certificate ({@link benchCertificate})
 */
/**
 * One measurement of one contender.
 * @typedef {{ rps: number, p50Ms: number, p99Ms: number, non200: number, peakRss: number }} Measurement
 */
/**
 * What bench/create.lua prints after a wrk run.
 * @typedef {{ requests: number, duration_us: number, p50_us: number, p99_us: number, non2xx: number, socket_errors: number }} WrkResult
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const require = createRequire(import.meta.url);
// bench's own packages, then runtime-tests' (the Node lines other than bench's Node 24).
const packageDir = (/** @type {string} */ name) => dirname(require.resolve(`${name}/package.json`, { paths: [here, root, join(root, 'runtime-tests')] }));

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const TOKEN = 'bench-token';

// The Node lines the support policy names (docs/install.md), from the registry's node packages.
const node24 = join(packageDir('node24'), 'bin/node');
/** @type {[runtime: string, binary: string][]} */
const NODE_LINES = NODE_RUNTIMES.map(
  (runtime) => /** @type {[string, string]} */ ([runtime, join(packageDir(`node${runtime.slice('Node '.length)}`), 'bin/node')]),
);
const bun = join(packageDir('bun'), 'bin/bun.exe');
const deno = join(packageDir('deno'), 'deno');
const denoRun = ['run', '--allow-net', '--allow-env', '--allow-read'];
// The standalone server also writes its SQLite file and, with PLANT_STORE_WORKERS, starts Deno again.
const denoStandaloneRun = [...denoRun, '--allow-write', `--allow-run=${deno}`];
const server = (/** @type {string} */ file) => join(here, 'servers', file);
const plantStoreNode = join(root, 'packages/server/dist/bin/node.js');
const bunStandalone = join(root, 'packages/server/dist/standalone/bun.js');
const denoStandalone = join(root, 'packages/server/dist/standalone/deno.js');

/**
 * A standalone server's rows over SQLite, compared with its memory row: one
 * process, and two on one port (PLANT_STORE_WORKERS) over the same file, on
 * both cores (wrk shares core 1).
 * @param {string} name the memory row's name
 * @param {string} runtime
 * @param {[string, ...string[]]} command
 * @returns {Contender[]}
 */
const sqliteRows = (name, runtime, command) => [
  { name: `${name} + SQLite (synchronous=FULL)`, runtime, command, store: 'sqlite' },
  { name: `${name} + SQLite, 2 processes on 2 cores`, runtime, command, store: 'sqlite', env: { PLANT_STORE_WORKERS: '2' }, cpus: '0,1' },
];

/**
 * A standalone server's rows over PostgreSQL, compared with its memory row:
 * straight to PostgreSQL and through PgBouncer in transaction mode, each with
 * one process on core 0 and two (PLANT_STORE_WORKERS) on both cores.
 * @param {string} name the memory row's name
 * @param {string} runtime
 * @param {[string, ...string[]]} command
 * @returns {Contender[]}
 */
const postgresRows = (name, runtime, command) =>
  /** @type {const} */ ([
    ['postgres', 'PostgreSQL'],
    ['pgbouncer', 'PostgreSQL through PgBouncer (transaction mode)'],
  ]).flatMap(([store, what]) => [
    { name: `${name} + ${what}`, runtime, command, store },
    { name: `${name} + ${what}, 2 processes on 2 cores`, runtime, command, store, env: { PLANT_STORE_WORKERS: '2' }, cpus: '0,1' },
  ]);

/**
 * Whether a contender is measured: all, or those whose runtime and name match `BENCH_ONLY`.
 * @param {{ runtime: string, name: string }} contender
 */
function selected(contender) {
  return !process.env.BENCH_ONLY || new RegExp(process.env.BENCH_ONLY).test(`${contender.runtime} ${contender.name}`);
}

/** The lean node:http server on Deno, which the standalone Deno server (node:http) is compared with. */
const DENO_NODE_HTTP_BASELINE = 'node:http hand-written, on Deno';
/** The lean Fetch handler on the same Node bridge, which Plant Store's Fetch adapter on it is compared with. */
const WHATWG_BASELINE = 'plain fetch handler on @whatwg-node/server';

/** The peer each Node line's standalone server is held to (issue 37: at least its req/s). */
const FASTIFY = 'Fastify 5 + JSON schema';
/** The peer the Bun standalone server is held to. */
const ELYSIA = 'Elysia 1.4 + TypeBox on Bun.serve';
/** The peer Plant Store's Fetch handler on Deno.serve is held to. */
const HONO_DENO = 'Hono + valibot on Deno.serve';

/**
 * One Node line's contenders: its hand-written baseline, Plant Store's Node adapter (held to
 * Fastify on the same Node), Fastify, Hono, and the Fetch adapter on the @whatwg-node bridge
 * against a lean handler on the same bridge.
 * @param {string} runtime
 * @param {string} node the binary
 * @returns {Contender[]}
 */
const nodeContenders = (runtime, node) => [
  { name: 'node:http hand-written (baseline)', runtime, baseline: true, command: [node, server('baseline-node.mjs')] },
  { name: 'Plant Store adapter-node', runtime, peer: FASTIFY, command: [node, plantStoreNode] },
  { name: FASTIFY, runtime, command: [node, server('fastify.mjs')] },
  { name: WHATWG_BASELINE, runtime, command: [node, server('baseline-whatwg.mjs')] },
  { name: 'Plant Store adapter-fetch on @whatwg-node/server', runtime, against: WHATWG_BASELINE, command: [node, server('plant-store-whatwg.mjs')] },
  { name: 'Hono + valibot on @hono/node-server', runtime, command: [node, server('hono-node.mjs')] },
];

/** Every contender: its runtime, whether it is that runtime's hand-written baseline, and how to start it. */
export const CONTENDERS = /** @satisfies {Contender[]} */ ([
  ...NODE_LINES.flatMap(([runtime, node]) => nodeContenders(runtime, node)),
  { name: 'Plant Store adapter-node, access log on', runtime: 'Node 24', command: [node24, plantStoreNode], env: { PLANT_STORE_ACCESS_LOG: 'on' } },
  // What TLS costs (HTTP/1.1, TLS 1.3, a P-256 certificate): against the same server on plain HTTP, measured in the same rounds.
  { name: 'Plant Store adapter-node over TLS', runtime: 'Node 24', against: 'Plant Store adapter-node', tls: true, command: [node24, plantStoreNode] },
  // The stores, through the same standalone server on Node 24 (SQLite needs 22.13+); compared with its memory row.
  ...sqliteRows('Plant Store adapter-node', 'Node 24', [node24, plantStoreNode]),
  ...postgresRows('Plant Store adapter-node', 'Node 24', [node24, plantStoreNode]),
  { name: 'raw Bun.serve (baseline)', runtime: 'Bun', baseline: true, command: [bun, server('baseline-bun.mjs')] },
  { name: 'Plant Store standalone (Bun.serve)', runtime: 'Bun', peer: ELYSIA, command: [bun, bunStandalone] },
  { name: 'Plant Store adapter-fetch on Bun.serve', runtime: 'Bun', command: [bun, server('plant-store-bun-serve.mjs')] },
  {
    name: 'Plant Store standalone (Bun.serve) over TLS',
    runtime: 'Bun',
    against: 'Plant Store standalone (Bun.serve)',
    tls: true,
    command: [bun, bunStandalone],
  },
  ...sqliteRows('Plant Store standalone (Bun.serve)', 'Bun', [bun, bunStandalone]),
  { name: 'Hono + valibot on Bun.serve', runtime: 'Bun', command: [bun, server('hono-bun.mjs')] },
  { name: ELYSIA, runtime: 'Bun', command: [bun, server('elysia-bun.mjs')] },
  { name: 'raw Deno.serve (baseline)', runtime: 'Deno', baseline: true, command: [deno, ...denoRun, server('baseline-deno.mjs')] },
  { name: 'Plant Store adapter-fetch on Deno.serve', runtime: 'Deno', peer: HONO_DENO, command: [deno, ...denoRun, server('plant-store-deno-serve.mjs')] },
  { name: HONO_DENO, runtime: 'Deno', command: [deno, ...denoRun, server('hono-deno.mjs')] },
  // The standalone Deno server runs node:http (Deno's), for the timeouts Deno.serve lacks: held to
  // the lean node:http server on Deno (BENCHMARKS.md, decision 1), it and its SQLite rows.
  { name: DENO_NODE_HTTP_BASELINE, runtime: 'Deno', command: [deno, ...denoRun, server('baseline-node.mjs')] },
  {
    name: 'Plant Store standalone (node:http on Deno)',
    runtime: 'Deno',
    against: DENO_NODE_HTTP_BASELINE,
    command: [deno, ...denoStandaloneRun, denoStandalone],
  },
  {
    name: 'Plant Store standalone (node:http on Deno) over TLS',
    runtime: 'Deno',
    against: 'Plant Store standalone (node:http on Deno)',
    tls: true,
    command: [deno, ...denoStandaloneRun, denoStandalone],
  },
  ...sqliteRows('Plant Store standalone (node:http on Deno)', 'Deno', [deno, ...denoStandaloneRun, denoStandalone]).map((row) => ({
    ...row,
    against: DENO_NODE_HTTP_BASELINE,
  })),
]).filter(selected);

/**
 * A contender of the in-process table (bench/in-process.mjs): its runtime, the
 * command that runs the script, the contender's name there, and the one its
 * ratios are taken against.
 * @typedef {{ runtime: string, name: string, command: [string, ...string[]], key: string, against?: string }} InProcessContender
 */
/** @type {(runtime: string, command: [string, ...string[]], rows: [name: string, key: string, against?: string][]) => InProcessContender[]} */
const inProcessRows = (runtime, command, rows) =>
  rows.map(([name, key, against]) => ({ runtime, name, command, key, ...(against === undefined ? {} : { against }) }));
const NODE_IN_PROCESS = /** @type {[string, string, string?][]} */ ([
  ['node:http hand-written (baseline)', 'node-baseline'],
  [CHECKS_ROW, 'node-checks', 'node-baseline'],
  ['Plant Store adapter-node', 'node-plant-store', 'node-baseline'],
  ['Plant Store adapter-node, JWT bearer (RS256, key cached, token seen before)', 'node-plant-store-jwt', 'node-baseline'],
  ['Plant Store adapter-node, JWT bearer (RS256, key cached, signature verified each time)', 'node-plant-store-jwt-verify-each', 'node-baseline'],
  ['Plant Store adapter-node, metrics on', 'node-plant-store-metrics', 'node-baseline'],
  ['Plant Store adapter-node, traces on (OpenTelemetry SDK, batched, spans dropped)', 'node-plant-store-traces', 'node-baseline'],
  ['Plant Store standalone serve()', 'node-plant-store-standalone', 'node-baseline'],
  ['plain fetch handler on @whatwg-node/server', 'node-whatwg-baseline'],
  ['Plant Store adapter-fetch on @whatwg-node/server', 'node-whatwg-plant-store', 'node-whatwg-baseline'],
]);
const FETCH_IN_PROCESS = /** @type {[string, string, string?][]} */ ([
  ['Fetch handler hand-written (baseline)', 'fetch-baseline'],
  [CHECKS_ROW, 'fetch-checks', 'fetch-baseline'],
  ['Plant Store adapter-fetch', 'fetch-plant-store', 'fetch-baseline'],
]);
const inProcessScript = join(here, 'in-process.mjs');
/** Every contender of the in-process table. */
export const IN_PROCESS = [
  ...NODE_LINES.flatMap(([runtime, node]) => inProcessRows(runtime, [node, inProcessScript], NODE_IN_PROCESS)),
  ...inProcessRows('Bun', [bun, inProcessScript], FETCH_IN_PROCESS),
  ...inProcessRows('Deno', [deno, ...denoRun, inProcessScript], FETCH_IN_PROCESS),
].filter(selected);

/**
 * Nanoseconds per create of one in-process contender, in a process of its own on core 0.
 * @param {InProcessContender} contender
 * @returns {number}
 */
function measureInProcess(contender) {
  const [binary, ...args] = contender.command;
  const output = execFileSync('taskset', ['-c', '0', binary, ...args, contender.key], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PLANT_STORE_TOKENS: TOKEN, DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' },
  });
  const json = /\{"nsPerRequest":[^}]*\}/.exec(output)?.[0];
  if (json === undefined) throw new Error(`${contender.runtime} ${contender.key}: ${output}`);
  return JSON.parse(json).nsPerRequest;
}

/**
 * The in-process table: every contender once per round, interleaved, each
 * round's cost compared with its baseline's in the same round.
 * @returns {import('./report.mjs').InProcessRow[]}
 */
function inProcessTable() {
  /** @type {Map<InProcessContender, number>[]} */
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    /** @type {Map<InProcessContender, number>} */
    const results = new Map();
    for (const contender of roundOrder(IN_PROCESS, round)) {
      const ns = measureInProcess(contender);
      results.set(contender, ns);
      console.log(`in process, round ${round + 1}/${ROUNDS} ${label(contender)}: ${ns.toFixed(0)} ns per create`);
    }
    rounds.push(results);
  }
  return IN_PROCESS.map((contender) => {
    const baseline = IN_PROCESS.find((other) => other.runtime === contender.runtime && other.key === contender.against);
    const costs = rounds.map((results) => measured(results, contender));
    // As in the wrk table, higher is faster: the baseline's cost over the contender's.
    const ratios = baseline === undefined ? [] : rounds.map((results) => measured(results, baseline) / measured(results, contender));
    return {
      runtime: contender.runtime,
      name: contender.name,
      baseline: contender.against === undefined,
      ns: median(costs),
      nsRange: range(costs),
      ratio: ratios.length ? median(ratios) : undefined,
      ratioRange: ratios.length ? range(ratios) : undefined,
    };
  });
}

function ensureWrk() {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  console.log('wrk is missing: installing the Debian package');
  execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' });
}

/**
 * Starts a contender on core 0 and resolves with its URL once it listens.
 * @param {Contender} contender
 */
async function start(contender) {
  if (contender.store === 'postgres' || contender.store === 'pgbouncer') await freshPostgresTable();
  const [binary, ...args] = contender.command;
  const child = spawn('taskset', ['-c', contender.cpus ?? '0', binary, ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      PLANT_STORE_TOKENS: TOKEN,
      PLANT_STORE_ACCESS_LOG: 'off',
      DENO_NO_UPDATE_CHECK: '1',
      DO_NOT_TRACK: '1',
      // Plant Store's store; the other contenders ignore it.
      PLANT_STORE_DATABASE_URL: storeUrl(contender.store ?? 'memory'),
      ...(contender.tls === true ? { PLANT_STORE_TLS_CERT: benchCertificate().certPath, PLANT_STORE_TLS_KEY: benchCertificate().keyPath } : {}),
      ...contender.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  /** @type {string} */
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${contender.name} did not start: ${out}`)), 30_000);
    const onData = (/** @type {Buffer} */ chunk) => {
      out += chunk.toString();
      const listening = /listening on (https?:\/\/\S+)/.exec(out)?.[1];
      if (listening !== undefined) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        // The access log goes to a pipe nobody reads fast enough to matter; drain it.
        child.stdout.resume();
        resolve(listening);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${contender.name} exited with ${code}: ${out}`)));
  });
  return { child, url };
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<void>}
 */
function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

/** @param {number | undefined} pid */
function peakRssBytes(pid) {
  // taskset execs the runtime, so the pid is the server's own.
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (kB === undefined) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kB) * 1024;
}

/**
 * @param {string} url
 * @param {number} seconds
 * @param {number} base the first plant id
 * @returns {WrkResult}
 */
function wrk(url, seconds, base) {
  const result = spawnSync(
    'taskset',
    ['-c', '1', 'wrk', '-t', '2', '-c', String(CONNECTIONS), '-d', `${seconds}s`, '--latency', '-s', join(here, 'create.lua'), url, '--', TOKEN, String(base)],
    {
      encoding: 'utf8',
    },
  );
  const json = /RESULT (\{.*\})/.exec(result.stdout)?.[1];
  if (json === undefined) throw new Error(`wrk failed: ${result.stdout}${result.stderr}`);
  return JSON.parse(json);
}

/**
 * @param {Contender} contender
 * @param {number} round
 * @returns {Promise<Measurement>}
 */
async function measure(contender, round) {
  const { child, url } = await start(contender);
  try {
    wrk(url, WARMUP_S, 1_000_000_000 * (round * 2 + 1));
    const result = wrk(url, DURATION_S, 1_000_000_000 * (round * 2 + 2));
    return {
      rps: result.requests / (result.duration_us / 1e6),
      p50Ms: result.p50_us / 1000,
      p99Ms: result.p99_us / 1000,
      non200: result.non2xx + result.socket_errors,
      peakRss: peakRssBytes(child.pid),
    };
  } finally {
    await stop(child);
  }
}

const label = (/** @type {{ runtime: string, name: string }} */ contender) => `${contender.runtime} · ${contender.name}`;
/** The median (NaN for no values). @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const at = (/** @type {number} */ index) => sorted[index] ?? NaN;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
};
/**
 * A contender's measurement in one round, of either table.
 * @template {{ runtime: string, name: string }} C
 * @template V
 * @param {Map<C, V>} results a round's
 * @param {C} contender
 * @returns {V}
 */
function measured(results, contender) {
  const result = results.get(contender);
  if (result === undefined) throw new Error(`no measurement of ${label(contender)}`);
  return result;
}
/**
 * The lowest and highest of `values`.
 * @param {number[]} values
 * @returns {[number, number]}
 */
const range = (values) => [Math.min(...values), Math.max(...values)];
/**
 * The order of a round: as listed in the first, third, … round (`round` 0,
 * 2, …), reversed in the others, so that a drift of the machine over a round
 * (it warms, its page cache fills) favours no contender over the one measured
 * beside it.
 * @template T
 * @param {T[]} contenders
 * @param {number} round
 * @returns {T[]}
 */
const roundOrder = (contenders, round) => (round % 2 === 0 ? contenders : [...contenders].reverse());
/** Whether two contenders start the same program. @param {Contender} a @param {Contender} b */
const sameCommand = (a, b) => a.command.join(' ') === b.command.join(' ');
/** Its first line, trimmed. @param {string} text */
const firstLine = (text) => (text.split('\n')[0] ?? '').trim();

/**
 * What the benchmark uses of a postgres.js connection (bench does not depend on the driver's types).
 * @typedef {{ unsafe: (text: string) => Promise<unknown>, end: (options?: { timeout?: number }) => Promise<void> }} Sql
 */
/**
 * The benchmark's PostgreSQL, once started: the `plants` database straight and
 * through PgBouncer, and a connection of the benchmark's own to it.
 * @type {{ url: string, pooledUrl: string | undefined, admin: Sql } | undefined}
 */
let database;
const sqliteDirectory = mkdtempSync(join(tmpdir(), 'plant-store-bench-'));
let sqliteFiles = 0;

/**
 * The store a contender keeps plants in: a fresh SQLite file per start, the benchmark's PostgreSQL straight or through its PgBouncer.
 * @param {'memory' | 'sqlite' | 'postgres' | 'pgbouncer'} store
 */
function storeUrl(store) {
  if (store === 'sqlite') return `sqlite:${join(sqliteDirectory, `plants-${++sqliteFiles}.db`)}`;
  if (store === 'postgres' || store === 'pgbouncer') {
    const url = store === 'postgres' ? database?.url : database?.pooledUrl;
    if (url === undefined) throw new Error(`no ${store === 'postgres' ? 'PostgreSQL' : 'PgBouncer'} started`);
    return url;
  }
  return 'memory:';
}

/**
 * Each start on PostgreSQL begins with an empty table, as each start on SQLite
 * with a fresh file: every PostgreSQL row of a round sends the same ids, and a
 * table grown by the rows before would slow the rows after.
 */
async function freshPostgresTable() {
  if (database === undefined) throw new Error('no PostgreSQL started');
  await database.admin.unsafe("SET lock_timeout = '10s'; DROP TABLE IF EXISTS plants");
}

/**
 * A PostgreSQL server of the benchmark's own, for the PostgreSQL rows: an
 * embedded one (runtime-tests/support/start-postgres.mjs) with a `plants`
 * database, and in front of it, when a row goes through it, Debian's PgBouncer
 * in transaction mode as docs/snippets/pgbouncer.ini configures it (as
 * runtime-tests/pgbouncer.test.ts runs it). Neither is pinned: they share both
 * cores with the server and wrk.
 * @param {boolean} pooled whether to start PgBouncer too
 */
async function startDatabase(pooled) {
  // The driver the tests (and the store) use, from the package that depends on it.
  const driver = createRequire(require.resolve('@plant-store/runtime-tests/start-postgres')).resolve('postgres');
  const postgres = /** @type {(url: string, options: { max: number, onnotice: () => void }) => Sql} */ ((await import(pathToFileURL(driver).href)).default);
  const server = await startPostgres();
  /** @type {Awaited<ReturnType<typeof startPgbouncer>> | undefined} */
  let bouncer;
  try {
    const setup = postgres(server.url, { max: 1, onnotice: () => {} });
    await setup.unsafe('CREATE DATABASE plants');
    await setup.end();
    const url = server.url.replace(/\/postgres$/, '/plants');
    const password = decodeURIComponent(new URL(server.url).password);
    if (pooled) {
      if (findPgbouncer() === undefined) throw new Error(`the PgBouncer rows need PgBouncer: ${INSTALL_PGBOUNCER}`);
      const snippet = readFileSync(join(root, 'docs/snippets/pgbouncer.ini'), 'utf8');
      bouncer = await startPgbouncer({
        config: (at) => fillPgbouncerConfig(snippet, { databasePort: server.port, ...at }),
        userlist: `"postgres" "${password}"\n`,
      });
    }
    const pooledUrl = bouncer && `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${bouncer.port}/plants`;
    database = { url, pooledUrl, admin: postgres(url, { max: 1, onnotice: () => {} }) };
  } catch (error) {
    await bouncer?.destroy();
    await server.destroy();
    throw error;
  }
  const admin = database.admin;
  return {
    async destroy() {
      await admin.end({ timeout: 1 });
      await bouncer?.destroy();
      await server.destroy();
    },
  };
}

async function main() {
  if (process.env.BENCH_TABLE === 'in-process') return inProcessAlone();
  ensureWrk();
  const postgresRows = CONTENDERS.filter((contender) => contender.store === 'postgres' || contender.store === 'pgbouncer');
  const databaseServers = postgresRows.length ? await startDatabase(postgresRows.some((contender) => contender.store === 'pgbouncer')) : undefined;
  try {
    await measureAll();
  } finally {
    // PostgreSQL and PgBouncer are stopped whatever happened: they are the benchmark's own processes.
    await databaseServers?.destroy();
    rmSync(sqliteDirectory, { recursive: true, force: true });
  }
}

/**
 * `BENCH_TABLE=in-process`: the in-process table alone (the measure of the
 * library's own cost on a small machine), which replaces that section of
 * BENCHMARKS.md and leaves the rest of the file, measured by an earlier full
 * run, as it was. With `BENCH_ONLY` it prints the table and writes nothing.
 */
function inProcessAlone() {
  const inProcess = inProcessTable();
  const file = join(root, 'BENCHMARKS.md');
  const versions = Object.entries({ ...Object.fromEntries(NODE_LINES), Bun: bun, Deno: deno })
    .map(([name, binary]) => `${name} ${firstLine(execFileSync(binary, ['--version'], { encoding: 'utf8' }))}`)
    .join(', ');
  const section = renderInProcessSection(
    inProcess,
    ROUNDS,
    `Measured in a run of this table alone (\`BENCH_TABLE=in-process\`), on ${new Date().toISOString().slice(0, 10)}, with ${versions}.`,
  ).join('\n');
  console.log(section);
  if (process.env.BENCH_ONLY) return;
  const before = withDecisions(readFileSync(file, 'utf8'));
  const start = before.indexOf(IN_PROCESS_HEADING);
  const end = before.indexOf('\n## ', start + IN_PROCESS_HEADING.length);
  if (start < 0 || end < 0) throw new Error(`BENCHMARKS.md has no "${IN_PROCESS_HEADING}" section followed by another: run the whole benchmark`);
  writeFileSync(file, `${before.slice(0, start)}${section}${before.slice(end)}`);
}

/**
 * BENCHMARKS.md with the decisions section as report.mjs writes it now: in
 * place of the one there, or else before the throughput table.
 * @param {string} markdown
 */
function withDecisions(markdown) {
  // A wrk table from a full run before the decisions has no goal column, and its Deno standalone
  // row is still compared with Deno.serve: say so, until the next full run renders it anew.
  const stale = markdown.includes('| p99 × baseline | peak RSS MiB | non-200 |\n');
  const note = stale
    ? [
        'The throughput table below is from the last full run, which came before these decisions: its Deno standalone row is still compared with `Deno.serve`, and it has no goal column yet. The next full run (`npx --yes pnpm@10.34.9 bench`) compares that row with the lean `node:http` server on Deno and marks each row against its goal.',
        '',
      ]
    : [];
  // Its last line is empty: one more newline leaves a blank line before the next heading.
  const decisions = `${[...renderDecisions(), ...note].join('\n')}\n`;
  const start = markdown.indexOf(DECISIONS_HEADING);
  if (start >= 0) return `${markdown.slice(0, start)}${decisions}${markdown.slice(markdown.indexOf('\n## ', start + DECISIONS_HEADING.length) + 1)}`;
  const throughput = markdown.indexOf('## Throughput and latency');
  if (throughput < 0) throw new Error('BENCHMARKS.md has no "## Throughput and latency" section: run the whole benchmark');
  return `${markdown.slice(0, throughput)}${decisions}${markdown.slice(throughput)}`;
}

/** @type {{ certPath: string, keyPath: string, cert: string } | undefined} */
let certificate;

/**
 * The certificate the TLS rows serve, made once per run with the openssl command (self-signed,
 * P-256, for 127.0.0.1), in a directory removed at exit.
 */
function benchCertificate() {
  if (certificate !== undefined) return certificate;
  const directory = mkdtempSync(join(tmpdir(), 'plant-store-bench-tls-'));
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  const certPath = join(directory, 'cert.pem');
  const keyPath = join(directory, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  certificate = { certPath, keyPath, cert: readFileSync(certPath, 'utf8') };
  return certificate;
}

/** The rounds, the tables, and the report. */
async function measureAll() {
  const started = Date.now();
  /** @type {Contender[]} */
  const eligible = [];
  for (const contender of CONTENDERS) {
    const { child, url } = await start(contender);
    try {
      const problems = await checkBehaviour(url, TOKEN, contender.tls === true ? benchCertificate().cert : undefined);
      if (problems.length === 0) eligible.push(contender);
      else console.log(`excluded ${label(contender)}: ${problems.join('; ')}`);
    } finally {
      await stop(child);
    }
  }
  /** @type {Map<Contender, Measurement>[]} */
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    /** @type {Map<Contender, Measurement>} */
    const results = new Map();
    for (const contender of roundOrder(eligible, round)) {
      const result = await measure(contender, round);
      results.set(contender, result);
      console.log(`round ${round + 1}/${ROUNDS} ${label(contender)}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99Ms.toFixed(2)} ms`);
    }
    rounds.push(results);
  }
  /** @type {Row[]} */
  const rows = eligible.map((contender) => {
    const baseline = eligible.find((other) =>
      contender.against === undefined
        ? other.baseline && other.runtime === contender.runtime
        : other.name === contender.against && other.runtime === contender.runtime,
    );
    const of = (/** @type {keyof Measurement} */ key) => rounds.map((results) => measured(results, contender)[key]);
    const ratios = baseline ? rounds.map((results) => measured(results, contender).rps / measured(results, baseline).rps) : [];
    const p99Ratios = baseline ? rounds.map((results) => measured(results, contender).p99Ms / measured(results, baseline).p99Ms) : [];
    // A durable store's row against the same server on the memory store, round by round.
    const memory = contender.store
      ? eligible.find((other) => other.runtime === contender.runtime && sameCommand(other, contender) && !other.store && !other.env && !other.cpus)
      : undefined;
    const storeRatios = memory ? rounds.map((results) => measured(results, contender).rps / measured(results, memory).rps) : [];
    // A Plant Store row against its peer on the same runtime, round by round.
    const peer = contender.peer === undefined ? undefined : eligible.find((other) => other.runtime === contender.runtime && other.name === contender.peer);
    const peerRatios = peer ? rounds.map((results) => measured(results, contender).rps / measured(results, peer).rps) : [];
    return {
      runtime: contender.runtime,
      name: contender.name,
      baseline: contender.baseline === true,
      ...(contender.against === undefined ? {} : { against: contender.against }),
      rps: median(of('rps')),
      ratio: ratios.length ? median(ratios) : undefined,
      ratioRange: ratios.length ? range(ratios) : undefined,
      p50Ms: median(of('p50Ms')),
      p99Ms: median(of('p99Ms')),
      p99Ratio: p99Ratios.length ? median(p99Ratios) : undefined,
      ...(contender.store
        ? {
            store: contender.store,
            ...(memory === undefined ? {} : { memoryName: memory.name }),
            storeRatio: median(storeRatios),
            storeRatioRange: range(storeRatios),
          }
        : {}),
      ...(peer === undefined ? {} : { peer: peer.name, peerRatio: median(peerRatios), peerRatioRange: range(peerRatios) }),
      peakRssMiB: Math.max(...of('peakRss')) / 2 ** 20,
      non200: of('non200').reduce((a, b) => a + b, 0),
    };
  });
  const versions = {
    ...Object.fromEntries(NODE_LINES.map(([runtime, node]) => [runtime, execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()])),
    Bun: execFileSync(bun, ['--version'], { encoding: 'utf8' }).trim(),
    Deno: firstLine(execFileSync(deno, ['--version'], { encoding: 'utf8' })),
    wrk: firstLine(spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stdout),
  };
  const inProcess = inProcessTable();
  const minutes = (Date.now() - started) / 60_000;
  const micro = JSON.parse(execFileSync(node24, [join(here, 'micro.mjs')], { encoding: 'utf8', cwd: root }));
  const memory = JSON.parse(execFileSync(node24, ['--expose-gc', join(here, 'memory.mjs')], { encoding: 'utf8', cwd: root }));
  const { markdown, svg } = renderReport({
    rows,
    versions,
    rounds: ROUNDS,
    warmup: WARMUP_S,
    duration: DURATION_S,
    connections: CONNECTIONS,
    minutes,
    inProcess,
    micro,
    memory,
  });
  // A partial run (BENCH_ONLY) prints its table but leaves the published one alone.
  if (!process.env.BENCH_ONLY) {
    writeFileSync(join(root, 'BENCHMARKS.md'), markdown);
    writeFileSync(join(here, 'throughput.svg'), svg);
  }
  console.log(markdown);
}

await main();
