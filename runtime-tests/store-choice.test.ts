import { execFileSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runtime, RUNTIMES, runToExit, spawnServer, temporaryDirectories, type SpawnedServer } from './runtimes.ts';
import { newestProcess } from './support/process-memory.ts';

const directory = temporaryDirectories('plant-store-choice-');

/** Runs the production server on `name` with `url` and resolves with its exit code, output and time taken, or kills it after 15 s. */
async function startFailing(name: string, url: string, more: Record<string, string> = {}): Promise<{ code: number | null; output: string; ms: number }> {
  const target = runtime(name);
  const { code, stdout, stderr, ms } = await runToExit(target.binary, target.production, {
    cwd: directory(),
    // '' leaves the variable unset: the default store.
    env: { PORT: '0', PLANT_STORE_TOKENS: 't', ...(url === '' ? {} : { PLANT_STORE_DATABASE_URL: url }), ...more },
    killAfterMs: 15_000,
  });
  return { code, output: stdout + stderr, ms };
}

/** The one line the server printed that names the cause, without Node's warnings. */
const causeOf = (output: string) => output.split('\n').filter((line) => line.startsWith('plant-store: '));

describe('choosing the store with PLANT_STORE_DATABASE_URL', () => {
  const servers: SpawnedServer[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it.each(['Node 22', 'Node 26', 'Bun', 'Deno'])('%s keeps plants by default in .plant-store/plants.db under the working directory', async (name) => {
    const where = directory();
    const server = await spawnServer(runtime(name), 'working', {}, where);
    servers.push(server);
    expect(server.output()).toContain(`(store: sqlite at ${join(where, '.plant-store/plants.db')})`);
  });

  it('Node 20 keeps them in memory by default and says they are lost at exit and how to keep them', async () => {
    const server = await spawnServer(runtime('Node 20'), 'working');
    servers.push(server);
    expect(server.output()).toContain('(store: memory)');
    expect(server.output()).toMatch(
      /plants are kept in memory and lost when the process stops; set PLANT_STORE_DATABASE_URL=sqlite:PATH .* or postgres:\/\/… to keep them/,
    );
  });

  it.each([
    [
      'Node 20',
      'mysql://root:hunter2@db/plants',
      /^plant-store: PLANT_STORE_DATABASE_URL: expected memory:, sqlite:PATH, a file: URL, postgres:\/\/… or rqlite:\/\/…, got "mysql:\/\/root:\*\*\*@db\/plants"$/,
    ],
    ['Node 20', 'sqlite:plants.db', /^plant-store: PLANT_STORE_DATABASE_URL: cannot use the SQLite file .*plants\.db: SQLite needs a runtime with it built in/],
    ['Node 22', 'sqlite:/etc/hostname/plants.db', /^plant-store: PLANT_STORE_DATABASE_URL: cannot use the SQLite file \/etc\/hostname\/plants\.db: /],
    ['Bun', 'file:///etc/hostname/plants.db', /^plant-store: PLANT_STORE_DATABASE_URL: cannot use the SQLite file \/etc\/hostname\/plants\.db: /],
    [
      'Node 20',
      'postgres://u:hunter2@127.0.0.1:1/plants',
      /^plant-store: PLANT_STORE_DATABASE_URL: cannot use PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/plants: /,
    ],
  ])('%s with %s stops at once with one line and exit 1', async (name, url, line) => {
    const { code, output } = await startFailing(name, url);
    expect(code).toBe(1);
    expect(causeOf(output)).toEqual([expect.stringMatching(line)]);
    expect(output).not.toContain('hunter2');
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('an unreachable database host stops the start within the 5 s connect timeout', async () => {
    // 10.255.255.1 is not routed here: the connection is never answered nor
    // refused (where a network says so at once, the start fails sooner still).
    const { code, output, ms } = await startFailing('Node 24', 'postgres://u:p@10.255.255.1:5432/plants');
    expect(code).toBe(1);
    expect(causeOf(output)).toEqual([expect.stringMatching(/cannot use PostgreSQL at .*: (no answer from the database within 5000 ms|connect E[A-Z]+ .*)$/)]);
    // The 5 s connect timeout, not the kernel's (about 2 minutes), with room for a loaded start.
    expect(ms).toBeLessThan(14_000);
  });

  it('PLANT_STORE_WORKERS=2 serves one port from two processes over one SQLite file, and stops them all on SIGTERM', async () => {
    const server = await spawnServer(runtime('Node 22'), 'working', { PLANT_STORE_WORKERS: '2' });
    servers.push(server);
    expect(server.output()).toMatch(/\(store: sqlite at .*plants\.db\) with 2 processes/);
    const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
    // New connections each time, so that both processes take some.
    const ids = Array.from({ length: 200 }, (_, i) => 7_000_000_000_000_000_000n + BigInt(i));
    const first = await Promise.all(ids.map((id) => send(server.baseUrl, { path: '/plants', headers, body: `{"id":${id},"name":"a"}` })));
    const again = await Promise.all(ids.map((id) => send(server.baseUrl, { path: '/plants', headers, body: `{"id":${id},"name":"b"}` })));
    expect([...first, ...again].map((response) => response.status)).toEqual([...ids.map(() => 200), ...ids.map(() => 409)]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('PLANT_STORE_WORKERS=2 replaces a worker that is killed, and keeps serving every plant', async () => {
    const server = await spawnServer(runtime('Node 22'), 'working', { PLANT_STORE_WORKERS: '2' });
    servers.push(server);
    const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
    const workers = async () => {
      for (let tries = 0; tries < 50; tries++) {
        const pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.child.pid)], { encoding: 'utf8' })
          .split('\n')
          .filter((line) => line.trim() !== '');
        if (pids.length === 2) return pids.map(Number);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the primary does not have two workers');
    };
    // The newer worker: the first holds the listening socket the primary shares, and
    // killing it before the second has taken that socket would close the port for a moment.
    const victim = newestProcess(await workers());
    expect((await send(server.baseUrl, { path: '/plants', headers, body: '{"id":81,"name":"before"}' })).status).toBe(200);
    process.kill(victim, 'SIGKILL');
    await expect.poll(() => server.output(), { timeout: 5_000 }).toMatch(new RegExp(`worker ${victim} ended \\(SIGKILL\\); starting another( in \\d+ ms)?\n`));
    expect(await workers()).not.toContain(victim);
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(server.baseUrl, { path: '/plants', headers, body: '{"id":81,"name":"before"}' })));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('PLANT_STORE_WORKERS=2: a worker started again while the file is moved away opens no new database over the log the other writes; no create answered 200 is lost', async () => {
    const dir = directory();
    const [file, away] = [join(dir, 'plants.db'), join(dir, 'plants.db.away')];
    const env = { PLANT_STORE_WORKERS: '2', PLANT_STORE_DATABASE_URL: `sqlite:${file}` };
    const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
    const create = (target: SpawnedServer, id: number, name = 'a') => send(target.baseUrl, { path: '/plants', headers, body: `{"id":${id},"name":"${name}"}` });
    const workersOf = (pid: number) =>
      execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map(Number);
    const first = await spawnServer(runtime('Node 24'), 'working', env);
    servers.push(first);
    await expect.poll(() => workersOf(first.child.pid!).length, { timeout: 10_000 }).toBe(2);
    const acknowledged: number[] = [];
    const createAll = async (ids: number[]) => {
      for (const answer of await Promise.all(ids.map(async (id) => ({ id, status: (await create(first, id)).status })))) {
        if (answer.status === 200) acknowledged.push(answer.id);
      }
    };
    await createAll(Array.from({ length: 50 }, (_, i) => 1 + i));
    expect(acknowledged).toHaveLength(50);
    renameSync(file, away);
    const victim = newestProcess(workersOf(first.child.pid!));
    process.kill(victim, 'SIGKILL');
    // Its replacement finds the file away and the log there: it refuses to start, and is tried again later.
    await expect.poll(() => first.output(), { timeout: 10_000 }).toContain(`the SQLite file ${file} is not there, but ${file}-wal`);
    renameSync(away, file);
    await expect.poll(() => workersOf(first.child.pid!).filter((pid) => pid !== victim).length, { timeout: 20_000 }).toBe(2);
    await createAll(Array.from({ length: 100 }, (_, i) => 1_000 + i));
    // Every process killed at once, as a crash of the machine would: what was acknowledged must be in the file.
    for (const pid of [...workersOf(first.child.pid!), first.child.pid!]) process.kill(pid, 'SIGKILL');
    await first.exited;
    const again = await spawnServer(runtime('Node 24'), 'working', env);
    servers.push(again);
    const lost: number[] = [];
    for (const id of acknowledged) if ((await create(again, id, 'other')).status !== 409) lost.push(id);
    expect({ acknowledged: acknowledged.length > 100, lost }).toEqual({ acknowledged: true, lost: [] });
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('PLANT_STORE_WORKERS=2 with a SQLite file that cannot be opened stops the start: one line, exit 1, no restarts', async () => {
    const { code, output, ms } = await startFailing('Node 22', 'sqlite:/etc/hostname/plants.db', { PLANT_STORE_WORKERS: '2' });
    expect(code).toBe(1);
    expect(causeOf(output)).toEqual([
      expect.stringMatching(/^plant-store: PLANT_STORE_DATABASE_URL: cannot use the SQLite file \/etc\/hostname\/plants\.db: /),
    ]);
    // Not restarted until the test's 15 s kill.
    expect(ms).toBeLessThan(14_000);
  });

  it.each([
    [
      'memory:',
      /^plant-store: PLANT_STORE_WORKERS: 2 processes need a store they share \(sqlite: or postgres:\/\/\); with memory: each would keep its own plants$/,
    ],
    ['', /^plant-store: PLANT_STORE_WORKERS: 2 processes need a store they share; this runtime has no built-in SQLite/],
  ])('PLANT_STORE_WORKERS=2 with the memory store (%s) refuses to start', async (url, line) => {
    const { code, output } = await startFailing('Node 20', url, { PLANT_STORE_WORKERS: '2' });
    expect(code).toBe(1);
    expect(causeOf(output)).toEqual([expect.stringMatching(line)]);
  });

  it.each(RUNTIMES.map((target) => target.name))('%s refuses a log format, docs switch or CORS origin that cannot work: one line, exit 1', async (name) => {
    const settings: [string, string, RegExp][] = [
      ['PLANT_STORE_LOG_FORMAT', 'xml', /^plant-store: PLANT_STORE_LOG_FORMAT: expected text or json, got "xml"$/],
      ['PLANT_STORE_DOCS', 'maybe', /^plant-store: PLANT_STORE_DOCS: expected on or off \(or true\/false, yes\/no, 1\/0\), got "maybe"$/],
      [
        'PLANT_STORE_CORS_ORIGINS',
        'https://app.example.com/api',
        /^plant-store: PLANT_STORE_CORS_ORIGINS: expected \* or origins such as .*, got "https:\/\/app\.example\.com\/api"$/,
      ],
    ];
    const results = await Promise.all(settings.map(([variable, value]) => startFailing(name, '', { [variable]: value })));
    expect(results.map(({ code, output }) => ({ code, cause: causeOf(output) }))).toEqual(
      settings.map(([, , line]) => ({ code: 1, cause: [expect.stringMatching(line)] })),
    );
  });

  it.each(['Node 26', 'Deno'])('%s with PLANT_STORE_LOG_FORMAT=json writes a start error as one JSON line', async (name) => {
    const { code, output } = await startFailing(name, 'mysql://root:hunter2@db/plants', { PLANT_STORE_LOG_FORMAT: 'json' });
    expect(code).toBe(1);
    const lines = output.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'error',
      msg: expect.stringMatching(
        /^plant-store: PLANT_STORE_DATABASE_URL: expected memory:, sqlite:PATH, a file: URL, postgres:\/\/… or rqlite:\/\/…, got "mysql:\/\/root:\*\*\*@db\/plants"$/,
      ),
    });
  });
});
