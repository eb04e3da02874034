import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STORE_CONTRACT, type StoreContractResult } from '@plant-store/testing/store-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtime, type Runtime } from './runtimes.ts';
import { startPostgres, type TestDatabase } from './support/start-postgres.mjs';

// The store contract on every runtime each store supports, each in a process of
// its own: fixtures/store-contract.ts, bundled by tsup.config.ts, runs the
// checks of @plant-store/testing/store-contract and prints their results.

const root = fileURLToPath(new URL('..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
/** Runs of each property per process; every runtime runs the whole contract. */
const CONTRACT_RUNS = 50;

type StoreKind = 'memory' | 'SQLite' | 'PostgreSQL';

/** Which runtimes each store must work on. */
const MATRIX: Record<StoreKind, readonly string[]> = {
  memory: ['Node 22', 'Node 24', 'Node 26', 'Bun', 'Deno'],
  SQLite: ['Node 22', 'Node 24', 'Node 26', 'Bun', 'Deno'],
  PostgreSQL: ['Node 22', 'Node 24', 'Node 26', 'Bun', 'Deno'],
};

/** What one runner process reported. */
interface Outcome {
  readonly code: number | null;
  /** The results it printed; undefined when it printed no `CONTRACT` line. */
  readonly results: readonly StoreContractResult[] | undefined;
  /** Everything it printed, for failure messages. */
  readonly output: string;
}

let sqliteDir: string;
let database: Promise<TestDatabase>;
const outcomes = new Map<string, Promise<Outcome>>();
const key = (store: StoreKind, runtimeName: string) => `${store} on ${runtimeName}`;

/**
 * The runner's command line on `runtime`. Deno gets the narrowest permissions
 * that work: the runner's two variables, for PostgreSQL also postgres.js's
 * `PG*` settings (it reads them for every option not given) and the database's
 * host and port, for SQLite reading and writing its directory alone.
 */
function runnerArgs(runtime: Runtime, store: StoreKind, url: string): string[] {
  if (runtime.name === 'Bun') return [join(here, 'dist/store-contract-neutral.js')];
  if (runtime.name !== 'Deno') return [join(here, 'dist/store-contract-node.js')];
  const permissions = [store === 'PostgreSQL' ? '--allow-env=STORE_URL,CONTRACT_RUNS,PG*' : '--allow-env=STORE_URL,CONTRACT_RUNS'];
  if (store === 'PostgreSQL') permissions.push(`--allow-net=${new URL(url).host}`);
  if (store === 'SQLite') permissions.push(`--allow-read=${sqliteDir}`, `--allow-write=${sqliteDir}`);
  return ['run', ...permissions, join(here, 'dist/store-contract-neutral.js')];
}

// At most this many runner processes at once, so that a slow machine does not
// push any of them past its time.
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= Math.max(2, availableParallelism() + 1)) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Runs the contract runner for `store` on `runtime` and collects what it printed. */
function runContract(store: StoreKind, runtimeName: string, url: string): Promise<Outcome> {
  const target = runtime(runtimeName);
  return slot(
    () =>
      new Promise<Outcome>((resolve, reject) => {
        const child = spawn(target.binary, runnerArgs(target, store, url), {
          cwd: root,
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: process.env['HOME'] ?? '/tmp',
            STORE_URL: url,
            CONTRACT_RUNS: String(CONTRACT_RUNS),
            DENO_NO_UPDATE_CHECK: '1',
            DO_NOT_TRACK: '1',
            NO_COLOR: '1',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 90_000,
          killSignal: 'SIGKILL',
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('error', reject);
        child.once('close', (code) => {
          const line = /^CONTRACT (.*)$/m.exec(output);
          const results = line === null ? undefined : (JSON.parse(line[1]!) as { results: StoreContractResult[] }).results;
          resolve({ code, results, output });
        });
      }),
  );
}

/** Starts the runners of `store`, side by side, once `url` is known. */
function launch(store: StoreKind, url: Promise<(runtimeName: string) => string>): void {
  for (const runtimeName of MATRIX[store]) {
    const outcome = url.then((urlOf) => runContract(store, runtimeName, urlOf(runtimeName)));
    outcome.catch(() => {}); // Reported by the tests that await it.
    outcomes.set(key(store, runtimeName), outcome);
  }
}

beforeAll(() => {
  sqliteDir = mkdtempSync(join(tmpdir(), 'plant-store-contract-'));
  database = startPostgres();
  database.catch(() => {}); // Reported by the PostgreSQL tests.
  // Every store at once: the runners of memory and SQLite run while PostgreSQL starts.
  launch(
    'memory',
    Promise.resolve(() => 'memory:'),
  );
  // A file prefix per runtime: each check opens `<prefix>-<n>.db` and expects it new.
  launch(
    'SQLite',
    Promise.resolve((runtimeName) => `sqlite:${join(sqliteDir, runtimeName.replace(/\W/g, '').toLowerCase())}`),
  );
  launch(
    'PostgreSQL',
    database.then(
      ({ url }) =>
        () =>
          url,
    ),
  );
});

afterAll(async () => {
  await Promise.allSettled(outcomes.values());
  await database.then((db) => db.destroy()).catch(() => {});
  rmSync(sqliteDir, { recursive: true, force: true });
}, 60_000);

for (const store of Object.keys(MATRIX) as StoreKind[]) {
  for (const runtimeName of MATRIX[store]) {
    describe(`store contract: ${store} on ${runtimeName}`, () => {
      const outcome = () => outcomes.get(key(store, runtimeName))!;

      for (const { name } of STORE_CONTRACT) {
        it(
          name,
          async () => {
            const { results, output } = await outcome();
            const result = results?.find((candidate) => candidate.name === name);
            if (result === undefined) throw new Error(`the runner reported nothing for this check; it printed:\n${output}`);
            if (!result.ok) throw new Error(result.error ?? 'failed with no message');
          },
          120_000,
        );
      }

      it('reports every check and exits 0 exactly when all passed', async () => {
        const { code, results, output } = await outcome();
        expect(
          results?.map((result) => result.name),
          output,
        ).toEqual(STORE_CONTRACT.map((check) => check.name));
        expect(code, output).toBe(results!.every((result) => result.ok) ? 0 : 1);
      }, 120_000);
    });
  }
}
