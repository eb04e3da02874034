// Runs on Node (vitest and scripts/ensure-pgbouncer.mjs): finds Debian's PgBouncer
// and starts one of the tests' own in front of a test database. Plain JavaScript so
// that the ensure script can import it without a build.
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './start-postgres.mjs';

/** Where Debian's `pgbouncer` package puts the binary. */
export const DEFAULT_PGBOUNCER = '/usr/sbin/pgbouncer';

/** How to get PgBouncer where the tests cannot install it themselves. */
export const INSTALL_PGBOUNCER = 'install it (on Debian or Ubuntu: sudo apt-get install pgbouncer) or set PLANT_STORE_PGBOUNCER to a pgbouncer executable';

/**
 * The PgBouncer to use: `PLANT_STORE_PGBOUNCER` when set, else Debian's; undefined
 * when it is not an executable file.
 *
 * @returns {string | undefined}
 */
export function findPgbouncer() {
  const chosen = process.env['PLANT_STORE_PGBOUNCER'];
  const path = chosen !== undefined && chosen !== '' ? chosen : DEFAULT_PGBOUNCER;
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}

/**
 * Resolves once something accepts TCP connections on 127.0.0.1:`port`, polling every 25 ms for at most `timeoutMs`.
 *
 * @param {number} port
 * @param {number} timeoutMs
 * @param {() => boolean} exited
 */
async function listening(port, timeoutMs, exited) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (exited()) throw new Error('pgbouncer exited before it listened');
    if (Date.now() > until) throw new Error(`pgbouncer did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Fills in docs/snippets/pgbouncer.ini (the configuration docs/scaling.md shows)
 * for a test: its `127.0.0.1:5432` database address, `6432` port and file paths
 * are replaced by the test's own.
 *
 * @param {string} template the snippet's text
 * @param {{ databasePort: number, port: number, directory: string }} at
 */
export function fillPgbouncerConfig(template, at) {
  return template
    .replaceAll('port=5432', `port=${at.databasePort}`)
    .replace(/^listen_port = 6432$/m, `listen_port = ${at.port}`)
    .replaceAll('/etc/pgbouncer/', `${at.directory}/`);
}

/**
 * Starts PgBouncer with `config` (an ini file's text, from {@link fillPgbouncerConfig})
 * and `userlist` (its auth_file), in a directory of its own. As root it runs as the
 * `postgres` user, as it refuses root. Resolves once it accepts connections.
 *
 * @param {{ config: (at: { port: number, directory: string }) => string, userlist: string }} options
 * @returns {Promise<import('./pgbouncer.d.mts').TestPgbouncer>}
 */
export async function startPgbouncer(options) {
  const binary = findPgbouncer();
  if (binary === undefined) throw new Error(`no pgbouncer at ${DEFAULT_PGBOUNCER}: ${INSTALL_PGBOUNCER}`);
  const directory = mkdtempSync(join(tmpdir(), 'plant-store-pgbouncer-'));
  const port = await freePort();
  const configPath = join(directory, 'pgbouncer.ini');
  const write = (/** @type {string} */ text) => writeFileSync(configPath, text);
  write(options.config({ port, directory }));
  writeFileSync(join(directory, 'userlist.txt'), options.userlist);
  /** @type {{ uid?: number, gid?: number }} */
  let ids = {};
  if (userInfo().uid === 0) {
    ids = {
      uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
      gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
    };
    execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, directory]);
    chmodSync(directory, 0o700);
  }
  const child = spawn(binary, [configPath], { ...ids, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let exited = false;
  const gone = new Promise((resolve) => child.once('exit', () => resolve((exited = true))));
  try {
    await listening(port, 10_000, () => exited);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${/** @type {Error} */ (error).message}; it printed:\n${output}`);
  }
  return {
    port,
    output: () => output,
    async reload(config) {
      write(config({ port, directory }));
      // SIGHUP rereads the file; PgBouncer 1.18 logs "got SIGHUP, re-reading config" as it does.
      const before = output.length;
      child.kill('SIGHUP');
      const until = Date.now() + 5_000;
      while (!/re-reading config/.test(output.slice(before))) {
        if (Date.now() > until) throw new Error(`pgbouncer did not reload within 5 s; it printed:\n${output.slice(before)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async destroy() {
      if (!exited) {
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await gone;
        clearTimeout(timer);
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
