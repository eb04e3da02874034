#!/usr/bin/env node
// @ts-nocheck -- a script run by hand against Debian's packages, outside the typed test suite.
// Runs by hand on Node 22+, as root on Debian 12 (not in the test command): one end-to-end
// failover under pg_auto_failover from Debian's packages (postgresql-15-auto-failover,
// pg-auto-failover-cli, installed with apt-get when missing). A monitor and two PostgreSQL 15
// nodes on 127.0.0.1, a standalone Node server (packages/server/dist, so `pnpm build` first)
// given the URL `pg_autoctl show uri` prints with target_session_attrs=primary in place of
// read-write, 16 clients creating plants; the primary's keeper and PostgreSQL are killed with
// SIGKILL, as a machine that dies; the monitor promotes the secondary. Prints the figures:
// time to the promotion, to the first create after it, 503s, acknowledged creates lost.
//   node runtime-tests/manual/pg-auto-failover.mjs
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = '/usr/lib/postgresql/15/bin';
const TOKEN = 'failover-token';
const [MONITOR, NODE1, NODE2] = [56_000, 56_001, 56_002];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.getuid?.() !== 0) throw new Error('run as root: PostgreSQL runs as the postgres user, and the packages may need installing');
if (!existsSync('/usr/bin/pg_autoctl') || !existsSync(join(BIN, 'pg_ctl'))) {
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql-15-auto-failover', 'pg-auto-failover-cli'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
const home = mkdtempSync(join(tmpdir(), 'plant-store-autofailover-'));
execFileSync('chown', [`${uid}:${gid}`, home]);
const env = {
  ...process.env,
  PATH: `${BIN}:/usr/bin:/bin`,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_DATA_HOME: join(home, 'data'),
  XDG_RUNTIME_DIR: join(home, 'run'),
};
const started = [];
/** Starts `pg_autoctl args` as postgres in its own process group, for a SIGKILL of the whole node. */
function autoctl(args, name) {
  const child = spawn('pg_autoctl', args, { uid, gid, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  started.push(child);
  return { child, log: () => log, name };
}
const ctl = (...args) => execFileSync('pg_autoctl', args, { uid, gid, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const monitorUri = `postgres://autoctl_node@127.0.0.1:${MONITOR}/pg_auto_failover?sslmode=disable`;
/** The states the monitor reports, by node port. */
function states() {
  try {
    const rows = JSON.parse(ctl('show', 'state', '--monitor', monitorUri, '--json'));
    return new Map(rows.map((row) => [row.nodeport ?? row.port, row.reported_state ?? row.current_group_state]));
  } catch {
    return new Map();
  }
}
async function until(condition, ms, what) {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}
const common = ['--pgctl', join(BIN, 'pg_ctl'), '--auth', 'trust', '--no-ssl', '--hostname', '127.0.0.1', '--run'];

let server;
try {
  const monitor = autoctl(['create', 'monitor', '--pgdata', join(home, 'monitor'), '--pgport', String(MONITOR), ...common], 'monitor');
  await until(
    () => {
      try {
        execFileSync(join(BIN, 'psql'), [monitorUri, '-Atc', 'SELECT 1'], { uid, gid, env, stdio: 'ignore' });
        return true;
      } catch {
        if (monitor.child.exitCode !== null) throw new Error(`the monitor exited:\n${monitor.log()}`);
        return false;
      }
    },
    60_000,
    'the monitor accepting connections',
  );
  const node1 = autoctl(['create', 'postgres', '--pgdata', join(home, 'node1'), '--pgport', String(NODE1), '--monitor', monitorUri, ...common], 'node1');
  await until(
    () => states().get(NODE1) === 'single',
    20_000,
    `node1 single (${node1.log().slice(-1500)} ${(() => {
      try {
        return ctl('show', 'state', '--monitor', monitorUri, '--json');
      } catch (e) {
        return String(e.stderr ?? e);
      }
    })()})`,
  );
  const node2 = autoctl(['create', 'postgres', '--pgdata', join(home, 'node2'), '--pgport', String(NODE2), '--monitor', monitorUri, ...common], 'node2');
  await until(() => states().get(NODE1) === 'primary' && states().get(NODE2) === 'secondary', 120_000, 'node1 primary and node2 secondary');
  const printed = ctl('show', 'uri', '--monitor', monitorUri, '--formation', 'default').trim();
  // The role is the store's to choose; the nodes trust local connections.
  const url = printed.replace('target_session_attrs=read-write', 'target_session_attrs=primary').replace('postgres://', 'postgres://postgres@');
  console.log(`pg_autoctl show uri: ${printed}\nthe store's URL:     ${url}`);

  server = spawn(process.execPath, [join(root, 'packages/server/dist/bin/node.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: TOKEN, PLANT_STORE_DATABASE_URL: url, PLANT_STORE_ACCESS_LOG: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serverLog = '';
  server.stdout.on('data', (chunk) => (serverLog += chunk));
  server.stderr.on('data', (chunk) => (serverLog += chunk));
  await until(() => /listening on http:\/\/[^\s]+/.test(serverLog), 30_000, `the server listening (${serverLog})`);
  const base = new URL(/listening on (http:\/\/[^\s]+)/.exec(serverLog)[1]);

  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const create = (id) =>
    new Promise((resolve) => {
      const body = `{"id":${id},"name":"p${id}"}`;
      const req = request(
        new URL('/plants', base),
        { method: 'POST', agent, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  const outcomes = [];
  let next = 1;
  let stopAt = Infinity;
  const clients = Array.from({ length: 16 }, async () => {
    while (Date.now() < stopAt) {
      const id = next++;
      const began = Date.now();
      const status = await create(id);
      outcomes.push({ id, began, ms: Date.now() - began, status });
      if (status !== 200) await sleep(20);
    }
  });
  await until(() => outcomes.filter((o) => o.status === 200).length >= 300, 30_000, '300 creates');
  // The whole node dies: its keeper and its PostgreSQL, one process group.
  process.kill(-node1.child.pid, 'SIGKILL');
  for (const pid of execFileSync('sh', ['-c', `pgrep -u postgres -f -- '-D ${join(home, 'node1')}' || true`], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean))
    process.kill(Number(pid), 'SIGKILL');
  const killedAt = Date.now();
  await until(() => states().get(NODE2) === 'wait_primary' || states().get(NODE2) === 'primary', 120_000, 'node2 promoted');
  const promotedAt = Date.now();
  await until(() => outcomes.some((o) => o.began >= promotedAt && o.status === 200), 30_000, 'a create after the promotion');
  stopAt = Date.now() + 5_000;
  await Promise.all(clients);
  agent.destroy();

  const acknowledged = outcomes.filter((o) => o.status === 200).map((o) => o.id);
  const found = execFileSync(
    join(BIN, 'psql'),
    ['-h', '127.0.0.1', '-p', String(NODE2), '-U', 'postgres', '-d', 'postgres', '-At', '-c', 'SELECT id, name FROM plants'],
    { uid, gid, env, encoding: 'utf8' },
  );
  const stored = new Map(
    found
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('|'))
      .map(([id, name]) => [Number(id), name]),
  );
  const firstAfter = outcomes.find((o) => o.began >= promotedAt && o.status === 200);
  console.log(
    `pg_auto_failover: ${outcomes.length} creates, ${acknowledged.length} answered 200, ${outcomes.filter((o) => o.status === 503).length} answered 503, ` +
      `${outcomes.filter((o) => ![200, 503].includes(o.status)).length} other; node2 promoted ${promotedAt - killedAt} ms after the kill, first create after it ` +
      `${firstAfter.began + firstAfter.ms - promotedAt} ms later; acknowledged creates lost: ${acknowledged.filter((id) => stored.get(id) !== `"p${id}"`).length}; ` +
      `server ${server.exitCode === null ? 'still running' : `exited ${server.exitCode}`}; unhandled in its log: ${/unhandled|uncaught/i.test(serverLog)}`,
  );
} finally {
  server?.kill('SIGTERM');
  for (const child of started.reverse()) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
  }
  await sleep(3_000);
  for (const child of started) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
  rmSync(home, { recursive: true, force: true });
}
