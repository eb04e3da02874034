import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CONFORMANCE_TOKEN, send, type RawResponse } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from './support/use-postgres.ts';
import { runtime, spawnServer, type SpawnedServer } from './runtimes.ts';

const HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
const create = (server: SpawnedServer, id: bigint, name: string, agent?: Agent): Promise<RawResponse> =>
  send(server.baseUrl, { path: '/plants', headers: HEADERS, body: `{"id":${id},"name":"${name}"}`, ...(agent ? { agent } : {}) });

const directories: string[] = [];
const servers: SpawnedServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});
function sharedDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'plant-store-durable-'));
  directories.push(directory);
  return directory;
}
async function start(name: string, directory: string, env: Record<string, string> = {}): Promise<SpawnedServer> {
  const server = await spawnServer(runtime(name), 'working', env, directory);
  servers.push(server);
  return server;
}

/**
 * Creates fresh plants from `clients` kept-alive clients until `signal` says
 * stop, and returns the ids that were answered 200: what the server promised
 * to keep.
 */
async function loadUntil(server: SpawnedServer, clients: number, firstId: bigint, stop: Promise<void>): Promise<bigint[]> {
  const acknowledged: bigint[] = [];
  let next = firstId;
  let stopped = false;
  void stop.then(() => (stopped = true));
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (!stopped) {
          const id = next++;
          const response = await create(server, id, `plant-${id}`, agent).catch(() => undefined);
          if (response?.status === 200) acknowledged.push(id);
          else if (response === undefined) return; // The server is gone.
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  return acknowledged;
}

/** Every acknowledged id replays 200 with its content and refuses other content with 409. */
async function expectKept(server: SpawnedServer, ids: readonly bigint[]): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  try {
    const wrong: string[] = [];
    await Promise.all(
      ids.map(async (id) => {
        const [same, other] = [await create(server, id, `plant-${id}`, agent), await create(server, id, `other-${id}`, agent)];
        if (same.status !== 200 || other.status !== 409) wrong.push(`${id}: ${same.status}/${other.status}`);
      }),
    );
    expect(wrong).toEqual([]);
  } finally {
    agent.destroy();
  }
}

describe('an acknowledged create survives kill -9', () => {
  const database = usePostgres();

  const cases: [string, string, () => Record<string, string>][] = [
    ['Node 22', 'SQLite', () => ({})],
    ['Node 24', 'SQLite', () => ({})],
    ['Bun', 'SQLite', () => ({})],
    ['Deno', 'SQLite', () => ({})],
    ['Node 26', 'SQLite', () => ({})],
    ['Node 22', 'PostgreSQL', () => ({ PLANT_STORE_DATABASE_URL: database().url })],
  ];
  it.each(cases)('%s with %s: every 200 before the kill replays after a restart', async (name, _store, env) => {
    const directory = sharedDirectory();
    const first = await start(name, directory, env());
    expect(first.output()).toMatch(/\(store: (sqlite|postgres) at /);
    let kill!: () => void;
    const killed = new Promise<void>((resolve) => (kill = resolve));
    const firstId = BigInt(Date.now()) * 1_000n;
    const loading = loadUntil(first, 32, firstId, killed);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    first.child.kill('SIGKILL');
    kill();
    const acknowledged = await loading;
    expect(await first.exited).toBe(-1);
    expect(acknowledged.length).toBeGreaterThan(50);

    const second = await start(name, directory, env());
    await expectKept(second, acknowledged);
  });
});

describe('processes sharing one SQLite file', () => {
  it('decide every id once: one 200 per id among Node 22, Node 24, Node 26, Bun and Deno, the others 409, and the file keeps the winner', async () => {
    const directory = sharedDirectory();
    const racers = await Promise.all(['Node 22', 'Node 24', 'Node 26', 'Bun', 'Deno'].map((name) => start(name, directory)));
    const agents = racers.map(() => new Agent({ keepAlive: true, maxSockets: 16 }));
    const ids = Array.from({ length: 300 }, (_, i) => 9_007_199_254_740_993n + BigInt(i) * 7_919n);
    try {
      const outcomes = await Promise.all(
        ids.map(async (id) => {
          const answers = await Promise.all(racers.map((racer, r) => create(racer, id, `racer-${r}`, agents[r])));
          return answers.map((answer) => answer.status);
        }),
      );
      const wrong = outcomes.filter((statuses) => statuses.filter((status) => status === 200).length !== 1 || statuses.some((s) => s !== 200 && s !== 409));
      expect(wrong).toEqual([]);
      // The winner is what the file holds: every process replays it and refuses the others.
      for (const [i, id] of ids.slice(0, 30).entries()) {
        const winner = outcomes[i]!.indexOf(200);
        const reader = racers[(winner + 1) % racers.length]!;
        expect((await create(reader, id, `racer-${winner}`)).status).toBe(200);
        expect((await create(reader, id, `racer-${(winner + 2) % racers.length}`)).status).toBe(409);
      }
    } finally {
      for (const agent of agents) agent.destroy();
    }
  });

  it('open a new file together: three Bun, three Node 24 and one Deno process starting at once all open it, 40 times over', async () => {
    const directory = sharedDirectory();
    const store = fileURLToPath(new URL('../packages/store-sqlite/dist/index.js', import.meta.url));
    const opener = join(directory, 'open.mjs');
    // Prints the error instead of a stack, so a failure shows which runtime said what.
    writeFileSync(
      opener,
      `import { createSqliteStore } from ${JSON.stringify(store)};\n` +
        `try { await (await createSqliteStore({ path: process.argv.at(-1) })).close(); console.log('open'); }\n` +
        `catch (error) { console.log(String(error)); }\n`,
    );
    const run = promisify(execFile);
    const deno = ['run', '--allow-read', '--allow-write', '--allow-env', opener];
    // Three of a kind start nearly together, which is when the race shows.
    const openers = [...['Bun', 'Bun', 'Bun', 'Node 24', 'Node 24', 'Node 24'].map((name) => [name, [opener]] as const), ['Deno', deno] as const];
    const failures: string[] = [];
    for (let round = 0; round < 40; round++) {
      const file = join(directory, `new-${round}.db`);
      const outputs = await Promise.all(
        openers.map(([name, args]) => run(runtime(name).binary, [...args, file], { timeout: 20_000 }).then(({ stdout }) => stdout.trim())),
      );
      for (const [i, output] of outputs.entries()) if (output !== 'open') failures.push(`round ${round}, ${openers[i]![0]}: ${output}`);
    }
    expect(failures).toEqual([]);
  });
});
