import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN, type ConformanceScenario, type RunningTarget } from '@plant-store/testing';
import { afterAll, beforeAll, expect } from 'vitest';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`, { paths: [here, root] }));

// As `npm run start:deno` grants it: the server lists the environment to warn of
// PLANT_STORE_* names it does not know, and postgres.js reads a PG… variable for
// every option it is not given.
const DENO_ENV = '--allow-env';
/** The default store's directory, under the working directory, and nothing else on disk. */
const DENO_DATA = ['--allow-read=.plant-store', '--allow-write=.plant-store'];

/** A runtime the standalone server must work on, and how to start it there. */
export interface Runtime {
  readonly name: string;
  /** The runtime's own binary. */
  readonly binary: string;
  readonly versionArgs: readonly string[];
  /** The production standalone entry: what `pnpm start…` runs. */
  readonly production: readonly string[];
  /** The same launcher with the store or verifier a fault scenario needs. */
  readonly fixture: readonly string[];
}

function nodeRuntime(name: string, binary: string): Runtime {
  return {
    name,
    binary,
    versionArgs: ['--version'],
    production: [join(root, 'packages/server/dist/bin/node.js')],
    fixture: [join(here, 'dist/node.js')],
  };
}

/**
 * Finds a runtime by name: one of {@link RUNTIMES}, or {@link NODE_20} for the
 * tests of what the support policy (docs/install.md) promises on Node 20.
 */
export function runtime(name: string): Runtime {
  const found = RUNTIMES.find((candidate) => candidate.name === name) ?? (name === NODE_20.name ? NODE_20 : undefined);
  if (found === undefined) throw new Error(`no runtime ${name}`);
  return found;
}

/**
 * The Node lines the support policy names (docs/install.md): every test that
 * runs per Node version runs on each. The tests themselves run on Node 24
 * (`scripts/on-tested-node.mjs`).
 */
export const NODE_LINES = ['Node 22', 'Node 24', 'Node 26'] as const;

/** A Node line the policy supports, by the name {@link runtime} knows it by. */
export type NodeLine = (typeof NODE_LINES)[number];

/**
 * Node 20, past its end of life (2026-04-30): not in {@link RUNTIMES}. Only the
 * tests of what the policy still promises there start it (`npm start` serves,
 * in memory).
 */
export const NODE_20: Runtime = nodeRuntime('Node 20', join(packageDir('node20'), 'bin/node'));

/** Every runtime of the test run; each binary comes from a registry package. */
export const RUNTIMES: readonly Runtime[] = [
  nodeRuntime('Node 22', join(packageDir('node22'), 'bin/node')),
  nodeRuntime('Node 24', join(packageDir('node24'), 'bin/node')),
  nodeRuntime('Node 26', join(packageDir('node26'), 'bin/node')),
  {
    name: 'Bun',
    binary: join(packageDir('bun'), 'bin/bun.exe'),
    versionArgs: ['--version'],
    production: [join(root, 'packages/server/dist/standalone/bun.js')],
    fixture: [join(here, 'dist/bun.js')],
  },
  {
    name: 'Deno',
    binary: join(packageDir('deno'), 'deno'),
    versionArgs: ['--version'],
    production: ['run', '--allow-net', DENO_ENV, ...DENO_DATA, join(root, 'packages/server/dist/standalone/deno.js')],
    fixture: ['run', '--allow-net', DENO_ENV, join(here, 'dist/deno.js')],
  },
  {
    name: 'workerd',
    binary: process.execPath,
    versionArgs: [join(packageDir('workerd'), 'bin/workerd'), '--version'],
    production: [join(root, 'packages/server/dist/standalone/workerd.js')],
    fixture: [join(here, 'dist/workerd.js')],
  },
];

/**
 * `runtime` as `PLANT_STORE_WORKERS` needs it: on Deno, the production entry
 * may also run Deno's own binary, to start the other processes
 * (`pnpm start:deno` grants it when the variable asks for several).
 */
export function withWorkers(runtime: Runtime): Runtime {
  if (runtime.name !== 'Deno') return runtime;
  const [command, ...rest] = runtime.production;
  return { ...runtime, production: [command!, `--allow-run=${runtime.binary}`, ...rest] };
}

/**
 * Deno's `args` granted reading the directories of the TLS files `env` names
 * (what `pnpm start:deno` grants too): added to its `--allow-read` list, or
 * as one of their own.
 */
function withTlsReadable(args: readonly string[], env: Record<string, string | undefined>): readonly string[] {
  const directories = [env['PLANT_STORE_TLS_CERT'], env['PLANT_STORE_TLS_KEY']].flatMap((path) => (path ? [dirname(path)] : []));
  if (directories.length === 0) return args;
  const read = args.findIndex((arg) => arg.startsWith('--allow-read='));
  if (read < 0) return [args[0]!, `--allow-read=${directories.join(',')}`, ...args.slice(1)];
  return args.map((arg, index) => (index === read ? `${arg},${directories.join(',')}` : arg));
}

/** The version a runtime reports, e.g. `v22.23.3` or `workerd 2026-07-30`. */
export function runtimeVersion(runtime: Runtime): string {
  const [first, ...rest] = runtime.versionArgs;
  const binary = runtime.name === 'workerd' ? first! : runtime.binary;
  const args = runtime.name === 'workerd' ? rest : runtime.versionArgs;
  return execFileSync(binary, args, { encoding: 'utf8' }).split('\n')[0]!.trim();
}

/** A standalone server in its own process. */
export interface SpawnedServer extends RunningTarget {
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `runtime`'s standalone server (`scenario`, `env`) before the tests of the enclosing block and closes it
 * after them, as {@link spawnServer} starts it.
 *
 * @returns The server, for the block's tests: it exists once `beforeAll` has run.
 */
export function useServer(runtime: Runtime, scenario: ConformanceScenario = 'working', env: Record<string, string | undefined> = {}): () => SpawnedServer {
  let server: SpawnedServer | undefined;
  beforeAll(async () => {
    server = await spawnServer(runtime, scenario, env);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (server === undefined) throw new Error(`useServer(${runtime.name}): the server is read before beforeAll has started it`);
    return server;
  };
}

/**
 * Starts `runtime` serving on 127.0.0.1 and a free port, and resolves once it
 * prints where it listens. A runtime that cannot start rejects with its output,
 * so the run fails with the reason instead of skipping.
 */
export async function spawnServer(
  runtime: Runtime,
  scenario: ConformanceScenario,
  env: Record<string, string | undefined> = {},
  shared?: string,
): Promise<SpawnedServer> {
  // A directory of its own, where the default store keeps its data (and its
  // working directory, outside the project): every server starts with no
  // plants, and nothing is left behind; or `shared`, which outlives it, for
  // servers that must share or find plants again. It is also the server's
  // TMPDIR, so that what it puts there (miniflare's files under workerd) goes
  // with it even when the server is killed.
  const data = shared ?? mkdtempSync(join(tmpdir(), 'plant-store-server-'));
  const clean = () => {
    // Retried: a process of the server's group killed as it ended may still be writing there for a moment.
    if (shared === undefined) rmSync(data, { recursive: true, force: true, maxRetries: 5 });
  };
  const args = scenario === 'working' ? runtime.production : runtime.fixture;
  const server = await spawnListening(
    `${runtime.name} (${scenario})`,
    runtime.binary,
    runtime.name === 'Deno' ? withTlsReadable(args, env) : args,
    {
      PLANT_STORE_TOKENS: CONFORMANCE_TOKEN,
      PLANT_STORE_ACCESS_LOG: 'off',
      CONFORMANCE_SCENARIO: scenario,
      TMPDIR: data,
      ...env,
    },
    data,
  ).catch((error: unknown) => {
    clean();
    throw error;
  });
  // A test that stops the server itself (a signal, then `exited`) never calls close(): the directory goes at its exit.
  void server.exited.then(() => {
    try {
      clean();
    } catch {
      // close() cleans again, and says why if it still cannot.
    }
  });
  return {
    ...server,
    async close() {
      await server.close();
      clean();
    },
  };
}

/**
 * Runs `binary args` with `PORT=0` on 127.0.0.1 and resolves once it prints
 * `listening on http://…` (or https://); rejects with its output if it exits or stays silent.
 */
export async function spawnListening(
  name: string,
  binary: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  cwd = root,
): Promise<SpawnedServer> {
  const child = spawn(binary, args, {
    cwd,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      HOST: '127.0.0.1',
      PORT: '0',
      DENO_NO_UPDATE_CHECK: '1',
      DO_NOT_TRACK: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that helpers it starts (workerd under miniflare)
    // can be cleaned up with it whatever happens.
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      killGroup(child);
      resolve(code ?? (signal ? -1 : null));
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /listening on (https?:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    baseUrl: url,
    child,
    exited,
    output: () => output,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      killGroup(child);
    },
  };
}

/** Ends whatever is left of a server's process group. */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Nothing left.
  }
}

/** What a process printed and how it ended: see {@link runToExit}. */
export interface Exited {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** From the spawn to the exit. */
  readonly ms: number;
}

/**
 * Runs `binary args` in `cwd` with only `env` and what any process needs, and
 * resolves once it has exited (killed after `killAfterMs`, 30 s by default)
 * and its output is closed. It runs in its own process group, ended when it
 * exits, so that processes it starts (workerd under miniflare, workers) never
 * outlive it. Rejects when the binary cannot be started.
 */
export function runToExit(
  binary: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: Record<string, string | undefined>; readonly killAfterMs?: number },
): Promise<Exited> {
  const started = Date.now();
  const child = spawn(binary, args, {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 30_000);
  // Timed at its exit; what it printed is whole once its output closes, which
  // processes it left holding that output would delay: they go first.
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      const ms = Date.now() - started;
      killGroup(child);
      resolve({ code, ms });
    }),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  // A binary that cannot be started (ENOENT, EACCES) rejects, rather than leave an 'error' event unheard.
  const failed = new Promise<never>((_, reject) =>
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    }),
  );
  return Promise.race([failed, Promise.all([exited, closed]).then(([{ code, ms }]) => ({ code, stdout, stderr, ms }))]);
}

/**
 * A function making new temporary directories named `prefix…` (their real
 * paths, as a server prints them), all removed after the file's tests. Called
 * where hooks are registered (a file's or a describe's body): inside a test,
 * its `afterAll` would never run and the directories would stay behind.
 */
export function temporaryDirectories(prefix: string): () => string {
  if (expect.getState().currentTestName !== undefined) {
    throw new Error(`temporaryDirectories('${prefix}') is called inside a test, whose afterAll never runs: call it in the file's or a describe's body`);
  }
  const made: string[] = [];
  afterAll(() => {
    for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  return () => {
    const directory = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    made.push(directory);
    return directory;
  };
}
