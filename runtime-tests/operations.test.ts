import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent } from 'node:http';
import { CONFORMANCE_TOKEN, parseResponses, rawExchange, send, type RawResponse } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestDatabase } from './support/start-postgres.mjs';
import { runtime, RUNTIMES, runToExit, spawnServer, withWorkers, type Runtime, type SpawnedServer } from './runtimes.ts';
import { newestProcess } from './support/process-memory.ts';

// What operators expect of the standalone server, on every runtime: the
// command line, health probes, JSON logs, request ids, CORS and the docs page.

const { version: VERSION } = JSON.parse(readFileSync(new URL('../packages/server/package.json', import.meta.url), 'utf8')) as { version: string };
const AUTHORIZED = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ORIGIN = 'https://app.example.com';
const VARIABLES = [
  'HOST',
  'PORT',
  'PLANT_STORE_TOKENS',
  'PLANT_STORE_DATABASE_URL',
  'PLANT_STORE_ACCESS_LOG',
  'PLANT_STORE_LOG_FORMAT',
  'PLANT_STORE_CORS_ORIGINS',
  'PLANT_STORE_DOCS',
  'PLANT_STORE_WORKERS',
  'PLANT_STORE_D1_DIR',
];

/** Runs the production entry of `target` with `args` and more variables to its end (10 s at most). */
async function runCommand(
  target: Runtime,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runToExit(target.binary, [...target.production, ...args], {
    cwd: process.cwd(),
    env: { PLANT_STORE_TOKENS: 'never-printed-token', ...env },
    killAfterMs: 10_000,
  });
  return { code, stdout, stderr };
}

/** Every JSON line a server printed, parsed; fails on a line that is neither JSON nor a runtime's own warning. */
function jsonLines(server: SpawnedServer): Record<string, unknown>[] {
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines.map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`not a JSON log line: ${line}\n${server.output()}`);
    }
  });
}

/** Waits until `found` holds for the server's output (access-log lines are written once per turn), or 5 s. */
async function waitFor(server: SpawnedServer, found: (output: string) => boolean): Promise<void> {
  for (let waited = 0; waited < 5_000 && !found(server.output()); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(RUNTIMES.map((target) => [target.name, target] as const))('%s standalone', (name, target) => {
  describe('command line', () => {
    it('--help prints the usage with every variable and its default, starts nothing and prints no token; exit 0', async () => {
      const { code, stdout, stderr } = await runCommand(target, ['--help']);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(/^Usage: plant-store \[--help \| --version\]\n/);
      for (const variable of VARIABLES) expect(stdout).toMatch(new RegExp(`^  ${variable} .*\\n +default: \\S`, 'm'));
      expect(stdout).not.toContain('never-printed-token');
      expect(stdout).not.toContain('listening on');
    });

    it('--version prints the package version; exit 0', async () => {
      expect(await runCommand(target, ['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    });

    it('an unknown argument gets one line naming it; exit 2', async () => {
      const { code, stdout, stderr } = await runCommand(target, ['--port', '80']);
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toBe('plant-store: unknown argument "--port"; settings are environment variables, listed by --help\n');
    });
  });

  describe('serving, with PLANT_STORE_LOG_FORMAT=json and PLANT_STORE_CORS_ORIGINS', () => {
    let server: SpawnedServer;
    beforeAll(async () => {
      server = await spawnServer(target, 'working', { PLANT_STORE_ACCESS_LOG: 'on', PLANT_STORE_LOG_FORMAT: 'json', PLANT_STORE_CORS_ORIGINS: ORIGIN });
    });
    afterAll(() => server?.close());

    it('answers /healthz and /readyz 200 without a token, never cached', async () => {
      const alive = await send(server.baseUrl, { method: 'GET', path: '/healthz' });
      const ready = await send(server.baseUrl, { method: 'GET', path: '/readyz' });
      expect([alive.status, alive.body, ready.status, ready.body]).toEqual([200, '{"status":"ok"}', 200, '{"status":"ready"}']);
      expect([alive.headers['cache-control'], ready.headers['cache-control']]).toEqual(['no-store', 'no-store']);
    });

    it('echoes a sane X-Request-Id and makes a UUID for a missing or unfit one, on every answer', async () => {
      const echoed = await send(server.baseUrl, {
        path: '/plants',
        headers: { ...AUTHORIZED, 'x-request-id': 'trace-4f0c:7d1b' },
        body: '{"id":1,"name":"a"}',
      });
      const missing = await send(server.baseUrl, { path: '/plants', headers: { 'content-type': 'application/json' }, body: '{}' });
      const unfit = await send(server.baseUrl, { method: 'GET', path: '/nowhere', headers: { 'x-request-id': 'two words' } });
      expect([echoed.status, missing.status, unfit.status]).toEqual([200, 401, 404]);
      expect(echoed.headers['x-request-id']).toBe('trace-4f0c:7d1b');
      expect(missing.headers['x-request-id']).toMatch(UUID);
      expect(unfit.headers['x-request-id']).toMatch(UUID);
      expect(unfit.headers['x-request-id']).not.toBe(missing.headers['x-request-id']);
    });

    it('answers a CORS preflight from an allowed origin, refuses another with 403 (1102), and marks actual answers', async () => {
      const preflight = { method: 'OPTIONS', path: '/plants' } as const;
      const allowed = await send(server.baseUrl, {
        ...preflight,
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(allowed.status).toBe(200);
      expect(allowed.headers).toMatchObject({
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': expect.stringMatching(/authorization.*content-type/),
        'access-control-max-age': expect.stringMatching(/^\d+$/),
        vary: expect.stringMatching(/origin/i),
      });
      const refused = await send(server.baseUrl, { ...preflight, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expect([refused.status, JSON.parse(refused.body).error, refused.headers['access-control-allow-origin']]).toEqual([403, 1102, undefined]);
      const actual = await send(server.baseUrl, { path: '/plants', headers: { ...AUTHORIZED, origin: ORIGIN }, body: '{"id":2,"name":"b"}' });
      expect([actual.status, actual.headers['access-control-allow-origin']]).toEqual([200, ORIGIN]);
      expect(actual.headers['access-control-expose-headers']).toContain('x-request-id');
    });

    it('serves the docs page (HTML under a Content-Security-Policy) and its files, without a token', async () => {
      const page = await send(server.baseUrl, { method: 'GET', path: '/docs' });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(page.body).toMatch(/^<!doctype html>/i);
      const script = await send(server.baseUrl, { method: 'GET', path: '/docs/init.js' });
      expect([script.status, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    });

    it('writes every line as JSON: startup (info, msg), and one access line per answer with time, level, requestId, traceId, method, path, status, ms', async () => {
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const marked = await send(server.baseUrl, { method: 'GET', path: '/readyz?token=in-query', headers: { 'x-request-id': 'json-line-check', traceparent } });
      expect(marked.status).toBe(200);
      await waitFor(server, (output) => output.includes('json-line-check'));
      const lines = jsonLines(server);
      // Node 22's warning that SQLite is experimental may come first, as a JSON line too.
      expect(lines.find((line) => line['level'] === 'info')).toMatchObject({
        msg: expect.stringMatching(/^plant-store listening on http:\/\/127\.0\.0\.1:\d+ \(store: /),
      });
      const access = lines.filter((line) => 'status' in line);
      expect(access.length).toBeGreaterThanOrEqual(10);
      for (const line of access) {
        expect(Object.keys(line)).toEqual(['time', 'level', 'requestId', 'traceId', 'method', 'path', 'status', 'ms']);
        expect(new Date(line['time'] as string).toISOString()).toBe(line['time']);
        expect(line['level']).toBe('info');
        expect(line['requestId']).toMatch(/^[A-Za-z0-9+/=._:-]{1,128}$/);
        expect(typeof line['ms']).toBe('number');
      }
      expect(access.find((line) => line['requestId'] === 'json-line-check')).toMatchObject({
        traceId: '0af7651916cd43dd8448eb211c80319c',
        method: 'GET',
        path: '/readyz',
        status: 200,
      });
      expect(access.find((line) => line['requestId'] === 'trace-4f0c:7d1b')).toMatchObject({ traceId: null, method: 'POST', path: '/plants', status: 200 });
      expect(server.output()).not.toContain('in-query');
      expect(server.output()).not.toContain(CONFORMANCE_TOKEN);
    });

    it('logs each path as the request is routed, the same on every runtime: no dot segments, and no scheme, host or password of an absolute-form target', async () => {
      const targets = [
        ['/a/../readyz', 'routed-dots', '/readyz'],
        ['/%2e/healthz', 'routed-encoded-dot', '/healthz'],
        ['http://user:hunter2@example.com/healthz?x=1', 'routed-absolute', '/healthz'],
      ] as const;
      for (const [target, id] of targets) {
        const result = await rawExchange(server.baseUrl, [`GET ${target} HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n`]);
        expect(parseResponses(result.received)[0]?.status, target).toBe(200);
      }
      await waitFor(server, (output) => targets.every(([, id]) => output.includes(id)));
      const access = jsonLines(server);
      for (const [target, id, path] of targets)
        expect(
          access.find((line) => line['requestId'] === id),
          target,
        ).toMatchObject({ method: 'GET', path, status: 200 });
      expect(server.output()).not.toContain('hunter2');
    });

    it.skipIf(name === 'Bun')('logs a protocol refusal as JSON, with the id its answer carries', async () => {
      const result = await rawExchange(server.baseUrl, [
        'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ]);
      const [answer] = parseResponses(result.received);
      expect(answer?.status).toBe(400);
      const requestId = answer!.headers['x-request-id']!;
      expect(requestId).toMatch(UUID);
      await waitFor(server, (output) => output.includes(requestId));
      expect(jsonLines(server).find((line) => line['requestId'] === requestId)).toEqual({
        time: expect.any(String),
        level: 'info',
        requestId,
        traceId: null,
        method: null,
        path: null,
        status: 400,
        ms: expect.any(Number),
      });
    });
  });

  it('answers /readyz 503 (1501) while it drains, /healthz 200 and /metrics 200 with every count; with PLANT_STORE_DOCS=off no docs page', async () => {
    const server = await spawnServer(target, 'working', { PLANT_STORE_DOCS: 'off' });
    try {
      expect((await send(server.baseUrl, { method: 'GET', path: '/docs' })).status).toBe(404);
      // Kept-alive connections opened before the signal: requests on them still reach the draining server.
      const probes = new Agent({ keepAlive: true, maxSockets: 1 });
      const liveness = new Agent({ keepAlive: true, maxSockets: 1 });
      const scrapes = new Agent({ keepAlive: true, maxSockets: 1 });
      const authorized = { authorization: `Bearer ${CONFORMANCE_TOKEN}` };
      try {
        const created = await send(server.baseUrl, {
          path: '/plants',
          headers: { ...authorized, 'content-type': 'application/json' },
          body: '{"id":1,"name":"counted"}',
        });
        expect(created.status).toBe(200);
        expect((await send(server.baseUrl, { method: 'GET', path: '/readyz', agent: probes })).status).toBe(200);
        expect((await send(server.baseUrl, { method: 'GET', path: '/healthz', agent: liveness })).status).toBe(200);
        // The scrape's own connection, opened before the signal (an answer of /metrics closes its connection).
        expect((await send(server.baseUrl, { method: 'GET', path: '/healthz', agent: scrapes })).status).toBe(200);
        server.child.kill('SIGTERM');
        let ready: RawResponse | undefined;
        for (let attempt = 0; attempt < 20; attempt++) {
          ready = await send(server.baseUrl, { method: 'GET', path: '/readyz', agent: probes });
          if (ready.status !== 200) break;
          await sleep(10);
        }
        expect([ready?.status, JSON.parse(ready!.body).error, ready?.headers['connection']]).toEqual([503, 1501, 'close']);
        expect((await send(server.baseUrl, { method: 'GET', path: '/healthz', agent: liveness })).status).toBe(200);
        // A scrape while it drains counts what came before, and says it drains.
        const scraped = await send(server.baseUrl, { method: 'GET', path: '/metrics', headers: authorized, agent: scrapes });
        expect([scraped.status, scraped.headers['connection']]).toEqual([200, 'close']);
        expect(scraped.body).toContain('\nplant_store_creates_total{outcome="inserted"} 1\n');
        expect(scraped.body).toContain('\nplant_store_draining 1\n');
      } finally {
        probes.destroy();
        liveness.destroy();
        scrapes.destroy();
      }
      expect(await server.exited).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('with PLANT_STORE_METRICS=off serves no /metrics: 404 (1200) to any method, as for a path that is no route; creates still answered', async () => {
    const server = await spawnServer(target, 'working', { PLANT_STORE_METRICS: 'off' });
    try {
      const authorized = { authorization: `Bearer ${CONFORMANCE_TOKEN}` };
      const answers: Record<string, [number, unknown]> = {};
      for (const [method, path] of [
        ['GET', '/metrics'],
        ['HEAD', '/metrics'],
        ['POST', '/metrics'],
        ['GET', '/x/../metrics'],
      ] as const) {
        const answer = await send(server.baseUrl, { method, path, headers: authorized, ...(method === 'POST' ? { body: '' } : {}) });
        answers[`${method} ${path}`] = [answer.status, method === 'HEAD' ? undefined : (JSON.parse(answer.body) as { error: number }).error];
      }
      expect(answers).toEqual({
        'GET /metrics': [404, 1200],
        'HEAD /metrics': [404, undefined],
        'POST /metrics': [404, 1200],
        'GET /x/../metrics': [404, 1200],
      });
      const created = await send(server.baseUrl, {
        path: '/plants',
        headers: { ...authorized, 'content-type': 'application/json' },
        body: '{"id":7,"name":"uncounted"}',
      });
      expect(created.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

/** The children of a server's first process (its workers), each with a socket listening on `port`, once there are `count`; 15 s at most. */
async function listeningWorkers(server: SpawnedServer, port: number, count: number): Promise<{ pid: number; sockets: string[] }[]> {
  let found: { pid: number; sockets: string[] }[] = [];
  for (let waited = 0; waited < 15_000; waited += 100) {
    const pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.child.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number);
    found = pids.map((pid) => ({ pid, sockets: listeningSockets(pid, port) }));
    if (found.length === count && found.every((worker) => worker.sockets.length > 0)) return found;
    await sleep(100);
  }
  throw new Error(`expected ${count} workers listening on ${port}, found ${JSON.stringify(found)}\n${server.output()}`);
}

/**
 * Stores plant `id`, kills `victims` (workers of `server`), and expects each said and replaced by a worker listening
 * on `port`, the plant replayed 200 by every one of 20 requests, and the server to drain and exit 0 on SIGTERM.
 */
async function expectReplacedOnPort(server: SpawnedServer, port: number, victims: readonly number[], id: number): Promise<void> {
  const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
  const body = `{"id":${id},"name":"before"}`;
  expect((await send(server.baseUrl, { path: '/plants', headers, body })).status).toBe(200);
  for (const victim of victims) process.kill(victim, 'SIGKILL');
  for (const victim of victims) {
    await expect.poll(() => server.output(), { timeout: 5_000 }).toMatch(new RegExp(`worker ${victim} ended \\(SIGKILL\\); starting another\n`));
  }
  const workers = await listeningWorkers(server, port, 2);
  expect(workers.filter((worker) => victims.includes(worker.pid))).toEqual([]);
  const answers = await Promise.all(Array.from({ length: 20 }, () => send(server.baseUrl, { path: '/plants', headers, body })));
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

/** The inodes of the IPv4 sockets listening on `port` that process `pid` holds (Linux's /proc). */
function listeningSockets(pid: number, port: number): string[] {
  const listening = new Set(
    readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // Fields: sl, local address (hex ip:port), remote address, state (0A: LISTEN), …, inode (10th).
      .filter((fields) => fields[3] === '0A' && Number.parseInt(fields[1]?.split(':')[1] ?? '', 16) === port)
      .map((fields) => fields[9]!),
  );
  const inodes: string[] = [];
  let descriptors: string[] = [];
  try {
    descriptors = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  for (const descriptor of descriptors) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${descriptor}`))?.[1];
      if (inode !== undefined && listening.has(inode)) inodes.push(inode);
    } catch {
      // Closed meanwhile.
    }
  }
  return inodes;
}

describe.each([
  ['Node 22', 'node:cluster, one socket shared'],
  ['Bun', 'a socket each, SO_REUSEPORT'],
  ['Deno', 'a socket each, SO_REUSEPORT'],
] as const)('PLANT_STORE_WORKERS=2 on %s (%s)', (name, _mechanism) => {
  const target = withWorkers(runtime(name));
  const ownSockets = name !== 'Node 22';

  it('prints one JSON startup line for all and the token it made once, serves from both processes with that token, and drains on SIGTERM: /readyz 503, exit 0', async () => {
    // No PLANT_STORE_TOKENS: the one token made must be the one every process accepts.
    const server = await spawnServer(target, 'working', {
      PLANT_STORE_WORKERS: '2',
      PLANT_STORE_LOG_FORMAT: 'json',
      PLANT_STORE_ACCESS_LOG: 'on',
      // Unset: set but empty stops the start.
      PLANT_STORE_TOKENS: undefined,
    });
    try {
      const port = Number(new URL(server.baseUrl).port);
      const workers = await listeningWorkers(server, port, 2);
      if (ownSockets) {
        // Each its own socket, and the supervisor none: it serves nothing itself.
        expect(new Set(workers.flatMap((worker) => worker.sockets)).size).toBe(2);
        expect(listeningSockets(server.child.pid!, port)).toEqual([]);
      }
      const lines = jsonLines(server);
      expect(lines.filter((line) => String(line['msg']).startsWith('plant-store listening on '))).toEqual([
        expect.objectContaining({ level: 'info', msg: expect.stringMatching(/\(store: sqlite at .*\) with 2 processes$/), workers: 2 }),
      ]);
      const tokens = lines.filter((line) => String(line['msg']).includes('PLANT_STORE_TOKENS is not set'));
      expect(tokens).toEqual([expect.objectContaining({ level: 'warn' })]);
      const token = /the only accepted token is ([0-9a-f]{48})$/.exec(String(tokens[0]!['msg']))![1]!;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      // New connections each time, so that both processes take some.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send(server.baseUrl, { path: '/plants', headers: { ...headers, 'x-request-id': `cluster-${i}` }, body: `{"id":${9_100 + i},"name":"a"}` }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
      expect(answers.map((answer) => answer.headers['x-request-id'])).toEqual(answers.map((_, i) => `cluster-${i}`));
      const probes = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        expect((await send(server.baseUrl, { method: 'GET', path: '/readyz', agent: probes })).status).toBe(200);
        server.child.kill('SIGTERM');
        let ready: RawResponse | undefined;
        for (let attempt = 0; attempt < 50; attempt++) {
          ready = await send(server.baseUrl, { method: 'GET', path: '/readyz', agent: probes });
          if (ready.status !== 200) break;
          await sleep(10);
        }
        expect([ready?.status, ready?.headers['connection']]).toEqual([503, 'close']);
      } finally {
        probes.destroy();
      }
      expect(await server.exited).toBe(0);
      await waitFor(server, (output) => output.includes('"requestId":"cluster-19"'));
      expect(jsonLines(server).filter((line) => String(line['requestId']).startsWith('cluster-'))).toHaveLength(20);
    } finally {
      await server.close();
    }
  });

  it('replaces both workers killed at once on the port the first got from PORT=0, and keeps serving every plant', async () => {
    const server = await spawnServer(target, 'working', { PLANT_STORE_WORKERS: '2' });
    try {
      const port = Number(new URL(server.baseUrl).port);
      // On Node the socket the workers share closes with the last of them: the next must take the same port again.
      await expectReplacedOnPort(
        server,
        port,
        (await listeningWorkers(server, port, 2)).map((worker) => worker.pid),
        83,
      );
    } finally {
      await server.close();
    }
  });

  it('replaces a worker that is killed, on the same port, and keeps serving every plant', async () => {
    const server = await spawnServer(target, 'working', { PLANT_STORE_WORKERS: '2' });
    try {
      const port = Number(new URL(server.baseUrl).port);
      // The newer worker: on Node the first holds the socket the primary shares, and killing it
      // before the second has taken that socket would close the port for a moment.
      await expectReplacedOnPort(server, port, [newestProcess((await listeningWorkers(server, port, 2)).map((worker) => worker.pid))], 82);
    } finally {
      await server.close();
    }
  });

  it('refuses the memory store, and a first process that cannot start stops the start: one line each, exit 1, no restarts', async () => {
    const memory = await runCommand(target, [], { PLANT_STORE_WORKERS: '2', PLANT_STORE_DATABASE_URL: 'memory:', PORT: '0' });
    expect({ code: memory.code, stdout: memory.stdout }).toEqual({ code: 1, stdout: '' });
    expect(memory.stderr).toMatch(
      /^plant-store: PLANT_STORE_WORKERS: 2 processes need a store they share \(sqlite: or postgres:\/\/\); with memory: each would keep its own plants\n$/,
    );
    const unopenable = await runCommand(target, [], { PLANT_STORE_WORKERS: '2', PLANT_STORE_DATABASE_URL: 'sqlite:/etc/hostname/plants.db', PORT: '0' });
    expect(unopenable.code).toBe(1);
    expect(unopenable.stdout + unopenable.stderr).toMatch(
      /^plant-store: PLANT_STORE_DATABASE_URL: cannot use the SQLite file \/etc\/hostname\/plants\.db: [^\n]*\n$/,
    );
  });
});

it('PLANT_STORE_WORKERS=2 on Deno without --allow-run for its binary stops the start with one line naming it; exit 1', async () => {
  const { code, stdout, stderr } = await runCommand(runtime('Deno'), [], { PLANT_STORE_WORKERS: '2', PORT: '0' });
  expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
  expect(stderr).toBe(`plant-store: PLANT_STORE_WORKERS: starting 2 processes on Deno needs --allow-run=${runtime('Deno').binary}\n`);
});

describe('/readyz over PostgreSQL', () => {
  let database: TestDatabase;
  const servers: SpawnedServer[] = [];
  beforeAll(async () => {
    database = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await database?.destroy();
  });

  it('answers 503 (1501) while the database is stopped, logs the cause as JSON on standard error, and 200 again once it is back', async () => {
    const started = await Promise.all(
      ['Node 22', 'Bun', 'Deno'].map((name) =>
        spawnServer(runtime(name), 'working', { PLANT_STORE_DATABASE_URL: database.url, PLANT_STORE_LOG_FORMAT: 'json', PLANT_STORE_ACCESS_LOG: 'on' }),
      ),
    );
    servers.push(...started);
    for (const server of started) expect((await send(server.baseUrl, { method: 'GET', path: '/readyz' })).status).toBe(200);
    await database.stop();
    for (const server of started) {
      const began = Date.now();
      const probe = await send(server.baseUrl, { method: 'GET', path: '/readyz', headers: { 'x-request-id': 'db-down-probe' } });
      expect([probe.status, JSON.parse(probe.body).error, probe.headers['x-request-id']]).toEqual([503, 1501, 'db-down-probe']);
      expect(probe.body).not.toMatch(/postgres|ECONNREFUSED/i);
      // Within the 4.5 s store timeout (twice it on a loaded machine): a load balancer's probe must not hang.
      expect(Date.now() - began).toBeLessThan(9_000);
      await waitFor(server, (output) => /"level":"error".*"requestId":"db-down-probe"/.test(output));
      expect(jsonLines(server).find((line) => line['level'] === 'error' && line['requestId'] === 'db-down-probe')).toMatchObject({
        msg: 'plant-store: unexpected error',
        method: 'GET',
        path: '/readyz',
        kind: 'storage-unavailable',
        error: expect.any(String),
      });
      expect(server.output()).not.toContain('plant-store-test');
    }
    await database.start();
    for (const server of started) {
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        status = (await send(server.baseUrl, { method: 'GET', path: '/readyz' })).status;
        if (status !== 200) await sleep(200);
      }
      expect(status).toBe(200);
    }
  });

  it('PLANT_STORE_WORKERS=2 on Node 22, Bun and Deno: the processes share the database, so each id is created once', async () => {
    const started = await Promise.all(
      ['Node 22', 'Bun', 'Deno'].map((name) =>
        spawnServer(withWorkers(runtime(name)), 'working', { PLANT_STORE_DATABASE_URL: database.url, PLANT_STORE_WORKERS: '2' }),
      ),
    );
    servers.push(...started);
    const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
    for (const [index, server] of started.entries()) {
      expect(server.output()).toMatch(/\(store: postgres at postgres:\/\/.*\) with 2 processes\n/);
      await listeningWorkers(server, Number(new URL(server.baseUrl).port), 2);
      // New connections each time, so that both processes take some; every id twice, with another name.
      const ids = Array.from({ length: 40 }, (_, i) => 8_000_000 + index * 1_000 + (i % 20));
      const answers = await Promise.all(
        ids.map((id, i) => send(server.baseUrl, { path: '/plants', headers, body: `{"id":${id},"name":"${i < 20 ? 'first' : 'second'}"}` })),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([...Array.from({ length: 20 }, () => 200), ...Array.from({ length: 20 }, () => 409)]);
    }
  });
});
