// Runs in the test process (Node): a Patroni cluster of the tests' own on 127.0.0.1, from
// Debian 12's packages (etcd 3.4, Patroni 3.0, HAProxy 2.6, PostgreSQL 15), configured by the
// snippets docs/scaling.md shows (docs/snippets/etcd.conf.yml, patroni.yml, haproxy.cfg) with
// their addresses, ports and paths replaced by the test's own.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { PATRONI_BINARIES } from './patroni-binaries.mjs';
import { processTree } from './process-memory.ts';
import { freePort } from './start-postgres.mjs';
import { until } from './until.ts';

const execFileAsync = promisify(execFile);

const snippet = (name: string) => readFileSync(fileURLToPath(new URL(`../../docs/snippets/${name}`, import.meta.url)), 'utf8');

/** The passwords patroni.yml ships with, which the test's files keep. */
const SUPERUSER_PASSWORD = 'change-me';

/** One PostgreSQL node under Patroni. */
interface Node {
  readonly name: string;
  readonly pgPort: number;
  readonly restPort: number;
  readonly dataDir: string;
  readonly configPath: string;
  child: ChildProcess | undefined;
}

/** A running cluster: see {@link startPatroniCluster}. */
export interface PatroniCluster {
  /** The one address every instance uses: HAProxy, which follows the primary. */
  readonly url: string;
  /** Each member's name and role as Patroni's REST API reports it (`leader`, `sync_standby`, `replica`…), from any node that answers. */
  members(): Promise<{ name: string; role: string; state: string }[]>;
  /** Resolves once `name` is the leader and the other node its running synchronous standby. */
  healthy(leader: string | undefined, timeoutMs: number): Promise<string>;
  /** Kills `name`'s Patroni, its postmaster and every backend at once with SIGKILL, as a machine that dies. */
  kill(name: string): void;
  /** `patronictl switchover --leader … --candidate … --force`, run with `leader`'s configuration file, without blocking the test's own clients; resolves to its output. */
  switchover(leader: string, candidate: string): Promise<string>;
  /** Everything the cluster's processes printed, for a failure's message. */
  output(): string;
  /** Kills every process the cluster started, by its id, and removes its files. */
  destroy(): Promise<void>;
}

/**
 * Three etcd members, two PostgreSQL 15 nodes under Patroni with `synchronous_mode`, and
 * HAProxy routing to the leader by Patroni's REST API, on 127.0.0.1. As root, Patroni and
 * PostgreSQL run as the `postgres` user, as PostgreSQL refuses root. Resolves once `pg1`
 * leads with `pg2` as its synchronous standby and HAProxy routes to it.
 */
export async function startPatroniCluster(): Promise<PatroniCluster> {
  const directory = mkdtempSync(join(tmpdir(), 'plant-store-patroni-'));
  chmodSync(directory, 0o755);
  const children: ChildProcess[] = [];
  let output = '';
  const run = (label: string, command: string, args: string[], ids: { uid?: number; gid?: number } = {}) => {
    const child = spawn(command, args, { ...ids, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    const keep = (chunk: Buffer) => (output += chunk.toString().replace(/^(?=.)/gm, `[${label}] `));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    children.push(child);
    return child;
  };
  const asPostgres: { uid?: number; gid?: number } =
    userInfo().uid === 0
      ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) }
      : {};
  const killed = new Set<Node>();
  // A test process that ends without destroy() (a crashed worker) still stops what it started.
  const killAtExit = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const node of nodes) if (!killed.has(node)) killPostmaster(node.dataDir);
  };
  process.once('exit', killAtExit);
  const cleanup = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const node of nodes) if (!killed.has(node)) killPostmaster(node.dataDir);
    process.off('exit', killAtExit);
    await Promise.all(
      children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)),
    );
    rmSync(directory, { recursive: true, force: true });
  };

  // etcd: three members from etcd.conf.yml, each with its own ports and data directory.
  const members: { name: string; client: number; peer: number }[] = [];
  for (const name of ['etcd1', 'etcd2', 'etcd3']) members.push({ name, client: await freePort(), peer: await freePort() });
  const etcdHosts = ['10.0.0.21', '10.0.0.22', '10.0.0.23'];
  const nodes: Node[] = [];
  try {
    const etcdTemplate = snippet('etcd.conf.yml');
    for (const member of members) {
      let config = etcdTemplate.replace(/^name: etcd1$/m, `name: ${member.name}`).replace(/^data-dir: .*$/m, `data-dir: ${join(directory, member.name)}`);
      for (const [other, host] of etcdHosts.entries()) {
        config = config.replaceAll(`${host}:2379`, `127.0.0.1:${members[other]!.client}`).replaceAll(`${host}:2380`, `127.0.0.1:${members[other]!.peer}`);
      }
      // The member's own URLs name etcd1's address in the snippet: each member names its own.
      config = config.replace(/^(listen-peer-urls|initial-advertise-peer-urls): .*$/gm, `$1: http://127.0.0.1:${member.peer}`);
      config = config.replace(/^(listen-client-urls|advertise-client-urls): .*$/gm, `$1: http://127.0.0.1:${member.client}`);
      const path = join(directory, `${member.name}.yml`);
      writeFileSync(path, config);
      run(member.name, PATRONI_BINARIES.etcd, ['--config-file', path]);
    }
    const etcdList = members.map((member) => `127.0.0.1:${member.client}`).join(',');
    // Patroni picks etcd's API path by the cluster version it first reads, and takes a cluster
    // not yet agreed on one (etcdcluster 3.0.0 or not_decided) for an old one: wait for 3.4.
    await until(
      async () => {
        const versions = await Promise.all(
          members.map((member) =>
            fetch(`http://127.0.0.1:${member.client}/version`, { signal: AbortSignal.timeout(2_000) })
              .then((response) => response.json() as Promise<{ etcdcluster: string }>)
              .then(
                (body) => body.etcdcluster,
                () => '',
              ),
          ),
        );
        return versions.every((version) => version.startsWith('3.4'));
      },
      30_000,
      'etcd members agreeing on cluster version 3.4',
    );

    // Patroni: pg1 and pg2 from patroni.yml, each given its ports just before it starts.
    const patroniTemplate = snippet('patroni.yml');
    const startNode = async (name: string) => {
      const pgPort = await freePort();
      const restPort = await freePort();
      const nodeDir = join(directory, name);
      mkdirSync(nodeDir, { mode: 0o700 });
      if (asPostgres.uid !== undefined) execFileSync('chown', [`${asPostgres.uid}:${asPostgres.gid}`, nodeDir]);
      const dataDir = join(nodeDir, 'data');
      const config = patroniTemplate
        .replace(/^name: pg1$/m, `name: ${name}`)
        .replaceAll('10.0.0.11:8008', `127.0.0.1:${restPort}`)
        .replaceAll('10.0.0.11:5432', `127.0.0.1:${pgPort}`)
        .replace(/^ {2}hosts: .*$/m, `  hosts: ${etcdList}`)
        .replace(/^ {2}data_dir: .*$/m, `  data_dir: ${dataDir}\n  pgpass: ${join(nodeDir, 'pgpass')}`)
        .replace(/^ {4}unix_socket_directories: .*$/m, `    unix_socket_directories: ${nodeDir}`);
      const configPath = join(directory, `${name}.yml`);
      writeFileSync(configPath, config);
      chmodSync(configPath, 0o644);
      const node: Node = { name, pgPort, restPort, dataDir, configPath, child: undefined };
      nodes.push(node);
      node.child = run(name, PATRONI_BINARIES.patroni, [configPath], asPostgres);
      return node;
    };
    const rest = (node: Node, path: string) => fetch(`http://127.0.0.1:${node.restPort}${path}`, { signal: AbortSignal.timeout(2_000) });
    // pg1 first, so that it bootstraps the cluster and leads; pg2 then copies it.
    const pg1 = await startNode('pg1');
    await until(async () => (await rest(pg1, '/primary').catch(() => undefined))?.status === 200, 60_000, 'pg1 leading', 250);
    await startNode('pg2');

    // HAProxy from haproxy.cfg.
    const proxyPort = await freePort();
    const proxyConfig = snippet('haproxy.cfg')
      .replace('bind 0.0.0.0:5000', `bind 127.0.0.1:${proxyPort}`)
      .replace(/server pg(\d) 10\.0\.0\.1\d:5432 (.*) check port 8008/g, (_, digit: string, rest: string) => {
        const node = nodes[Number(digit) - 1]!;
        return `server pg${digit} 127.0.0.1:${node.pgPort} ${rest} check port ${node.restPort}`;
      });
    const proxyPath = join(directory, 'haproxy.cfg');
    writeFileSync(proxyPath, proxyConfig);
    run('haproxy', PATRONI_BINARIES.haproxy, ['-db', '-f', proxyPath]);

    const cluster: PatroniCluster = {
      url: `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${proxyPort}/postgres`,
      async members() {
        for (const node of nodes) {
          const response = await rest(node, '/cluster').catch(() => undefined);
          if (response?.status === 200) return ((await response.json()) as { members: { name: string; role: string; state: string }[] }).members;
        }
        return [];
      },
      async healthy(leader, timeoutMs) {
        let found = '';
        await until(
          async () => {
            const all = await cluster.members();
            const lead = all.find((member) => member.role === 'leader' && member.state === 'running');
            const sync = all.find((member) => member.role === 'sync_standby' && ['running', 'streaming'].includes(member.state));
            if (lead === undefined || sync === undefined || (leader !== undefined && lead.name !== leader)) return false;
            // HAProxy marks a node up after one passing check (every second).
            if ((await routedTo(cluster.url, nodes)) !== lead.name) return false;
            found = lead.name;
            return true;
          },
          timeoutMs,
          `${leader ?? 'a leader'} with a streaming synchronous standby`,
          // Each check opens a connection through HAProxy: a few a second, under the load.
          250,
        ).catch((error: Error) => {
          throw new Error(`${error.message}; the cluster printed:\n${output.slice(-6_000)}`);
        });
        return found;
      },
      kill(name) {
        const node = nodes.find((candidate) => candidate.name === name)!;
        // Every process of the node, read before any is killed, so that all go at once.
        const postmaster = postmasterOf(node.dataDir);
        const pids = [...(node.child?.pid === undefined ? [] : processTree(node.child.pid)), ...(postmaster === undefined ? [] : processTree(postmaster))];
        killed.add(node);
        for (const pid of new Set(pids)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      },
      async switchover(leader, candidate) {
        const node = nodes.find((candidateNode) => candidateNode.name === leader)!;
        const { stdout } = await execFileAsync(
          PATRONI_BINARIES.patronictl,
          ['-c', node.configPath, 'switchover', '--leader', leader, '--candidate', candidate, '--force'],
          { encoding: 'utf8', timeout: 60_000, env: { ...process.env, LC_ALL: 'C.UTF-8' } },
        );
        return stdout;
      },
      output: () => output,
      async destroy() {
        // Its data is thrown away: no shutdown to wait for.
        await cleanup();
      },
    };
    await cluster.healthy('pg1', 60_000);
    return cluster;
  } catch (error) {
    await cleanup();
    throw new Error(
      `${(error as Error).message}${(error as Error).message.includes('the cluster printed') ? '' : `; the cluster printed:\n${output.slice(-6_000)}`}`,
    );
  }
}

/**
 * The postmaster's pid, the first line of `postmaster.pid` in `dataDir`, when
 * that process is a postgres still: undefined when it is not running, or when
 * the file outlived it (a SIGKILL leaves it) and its pid went to another.
 */
function postmasterOf(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres' ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Kills the postmaster of `dataDir` and every process below it, if it runs. */
function killPostmaster(dataDir: string): void {
  const postmaster = postmasterOf(dataDir);
  if (postmaster === undefined) return;
  for (const pid of processTree(postmaster)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
/** The node a new connection to `url` reaches (by the port it serves on), if it is a primary. */
async function routedTo(url: string, nodes: readonly Node[]): Promise<string | undefined> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    const [row] = await sql<{ port: number; standby: boolean }[]>`SELECT inet_server_port() AS port, pg_is_in_recovery() AS standby`;
    return row === undefined || row.standby ? undefined : nodes.find((node) => node.pgPort === row.port)?.name;
  } catch {
    return undefined;
  } finally {
    await sql.end({ timeout: 1 });
  }
}
