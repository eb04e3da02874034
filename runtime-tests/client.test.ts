// @plant-store/client against the standalone server on every runtime, the
// client itself run on Node 22, 24, 26, Bun and Deno, and its retries under
// real faults: an answer cut off after the store kept the plant, a server
// killed with SIGKILL mid-request and started again on its durable store, and
// a PostgreSQL server frozen with SIGSTOP until the store answers 503; and, on
// every runtime, the client against a raw service that redirects, lies and
// never stops answering.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPlantClient, ErrorCode, PlantStoreError, type PlantClient, type PlantClientOptions, type RetryInfo } from '@plant-store/client';
import { CONFORMANCE_TOKEN, freshId, type ConformanceScenario } from '@plant-store/testing';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_IDS, edgeName } from './fixtures/client-checks.ts';
import { usePostgres } from './support/use-postgres.ts';
import { runtime, RUNTIMES, spawnServer, type Runtime, type SpawnedServer } from './runtimes.ts';

const INT64_MAX = 9223372036854775807n;
/** Quick retries: the faults below heal within a second or two. */
const RETRY = { attempts: 40, initialDelayMs: 25, maxDelayMs: 400, maxElapsedMs: 30_000 } as const;
const SCENARIOS: readonly ConformanceScenario[] = ['working', 'store-failing', 'store-full', 'authenticate-throwing'];

const temporary = mkdtempSync(join(tmpdir(), 'plant-store-client-'));
const servers: SpawnedServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  await Promise.all([...servers.map((server) => server.close()), ...cleanups.map((cleanup) => cleanup())]);
  rmSync(temporary, { recursive: true, force: true });
});

async function start(on: Runtime, scenario: ConformanceScenario, env: Record<string, string> = {}, shared?: string): Promise<SpawnedServer> {
  const server = await spawnServer(on, scenario, env, shared);
  servers.push(server);
  return server;
}

function clientOf(baseUrl: string, options: Partial<PlantClientOptions> = {}): PlantClient {
  return createPlantClient({ baseUrl, token: CONFORMANCE_TOKEN, retry: { attempts: 2, initialDelayMs: 10 }, ...options });
}

/** The error a failing create rejects with, as plain data. */
async function failure(promise: Promise<unknown>): Promise<{ code: unknown; status: unknown; attempts: number }> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof PlantStoreError)) throw new Error(`expected a PlantStoreError, got ${String(error)}`);
  return { code: error.code, status: error.status, attempts: error.attempts };
}

/**
 * A TCP proxy in front of a server, which can break one exchange: at the next
 * request (after forwarding it, or not) or at the next answer (never passed
 * on), it runs `action`, then cuts both connections. While `target` is unset
 * (the server is down), connections are cut at once.
 */
interface FaultProxy {
  readonly baseUrl: string;
  target: SpawnedServer | undefined;
  /** Arms the fault; resolves with the bytes it kept back once it fired and its action finished. */
  breakNext(at: 'request-dropped' | 'request-forwarded' | 'answer', action?: () => void | Promise<void>): Promise<string>;
}

async function startProxy(target: SpawnedServer): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  let fault: { at: 'request-dropped' | 'request-forwarded' | 'answer'; fire: (chunk: Buffer, cut: () => void) => void } | undefined;
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    const current = proxy.target;
    if (current === undefined) return void client.destroy();
    const upstream = connect(Number(new URL(current.baseUrl).port), '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', cut);
    upstream.on('close', cut);
    client.on('close', cut);
    client.on('data', (chunk: Buffer) => {
      if (fault?.at === 'request-dropped' || fault?.at === 'request-forwarded') {
        if (fault.at === 'request-forwarded') upstream.write(chunk);
        const { fire } = fault;
        fault = undefined;
        fire(chunk, cut);
      } else upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (fault?.at === 'answer') {
        const { fire } = fault;
        fault = undefined;
        fire(chunk, cut);
      } else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const proxy: FaultProxy = {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    target,
    breakNext(at, action) {
      return new Promise((resolve, reject) => {
        fault = {
          at,
          fire: (chunk, cut) => {
            Promise.resolve(action?.())
              .then(() => cut())
              .then(() => resolve(chunk.toString('latin1')), reject);
          },
        };
      });
    },
  };
  return proxy;
}

/**
 * Runs a bundled client check on `client`, resolving with the JSON it prints or answers: a
 * process for Node, Bun and Deno (`script baseUrl token [label]`), a Worker under miniflare for
 * workerd (POSTed `{ baseUrl, token, label }`; its source given as text, as workerd refuses a
 * module path outside its working directory).
 */
async function runClientBundle(
  client: string,
  bundles: { readonly script: string; readonly worker: string },
  baseUrl: string,
  label?: string,
): Promise<unknown> {
  if (client === 'workerd') {
    const miniflare = new Miniflare({ modules: true, script: readFileSync(bundles.worker, 'utf8'), compatibilityDate: '2026-07-01' });
    try {
      const response = await miniflare.dispatchFetch('http://client.test/', {
        method: 'POST',
        body: JSON.stringify({ baseUrl, token: CONFORMANCE_TOKEN, label }),
      });
      return await response.json();
    } finally {
      await miniflare.dispose();
    }
  }
  const { binary } = runtime(client);
  const args = client === 'Deno' ? ['run', '--allow-net', bundles.script] : [bundles.script];
  return new Promise((resolve, reject) =>
    execFile(
      binary,
      [...args, baseUrl, CONFORMANCE_TOKEN, ...(label === undefined ? [] : [label])],
      { timeout: 30_000, env: { PATH: process.env['PATH'] ?? '', DENO_NO_UPDATE_CHECK: '1' } },
      (error, stdout, stderr) => (error ? reject(new Error(`${client}: ${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    ),
  );
}

describe('the client against the standalone server on every runtime', () => {
  const started = new Map<string, Promise<SpawnedServer>>();
  const server = (on: Runtime, scenario: ConformanceScenario) => started.get(`${on.name} ${scenario}`)!;
  beforeAll(() => {
    // Every server at once: a runtime's start is mostly waiting.
    for (const on of RUNTIMES) for (const scenario of SCENARIOS) started.set(`${on.name} ${scenario}`, start(on, scenario));
    return Promise.all(started.values()).then(() => undefined);
  }, 60_000);

  describe.concurrent.each(RUNTIMES.map((on) => [on.name, on] as const))('%s', (_name, on) => {
    it('creates, replays and refuses a conflicting create, with any strings exactly', async ({ expect }) => {
      const client = clientOf((await server(on, 'working')).baseUrl);
      for (const plant of [{ name: 'Monstera', tag: 'tropical' }, { name: '' }, { name: 'Kaktus 🌵 \u0000 "q" \\ \u2028 \ud800', tag: '\udfff' }]) {
        const id = freshId();
        expect(await client.createPlant({ id, ...plant })).toEqual(plant);
        expect(await client.createPlant({ id, ...plant })).toEqual(plant);
        const conflicting =
          'tag' in plant ? [{ name: plant.name }, { name: plant.name, tag: `${plant.tag}!` }] : [{ name: plant.name, tag: '' }, { name: 'other' }];
        for (const other of conflicting)
          expect(await failure(client.createPlant({ id, ...other }))).toEqual({ code: ErrorCode.Conflict, status: 409, attempts: 1 });
        expect(await client.createPlant({ id, ...plant })).toEqual(plant);
      }
    });

    it('keeps 1152921504606846976 and 1152921504606846977 apart', async ({ expect }) => {
      const client = clientOf((await server(on, 'working')).baseUrl);
      expect(await client.createPlant({ id: 1152921504606846976n, name: 'a' })).toEqual({ name: 'a' });
      expect(await client.createPlant({ id: 1152921504606846977n, name: 'b' })).toEqual({ name: 'b' });
      expect((await failure(client.createPlant({ id: 1152921504606846977n, name: 'a' }))).code).toBe(ErrorCode.Conflict);
    });

    it('lets exactly one of 16 concurrent clients win an id', async ({ expect }) => {
      const { baseUrl } = await server(on, 'working');
      const id = freshId();
      const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => clientOf(baseUrl).tryCreatePlant({ id, name: `racer ${i}` })));
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.ok && outcome.error.code === ErrorCode.Conflict)).toHaveLength(15);
    });

    it('maps 1101, 1200 and 1400, and accepts a body of exactly 1 MiB', async ({ expect }) => {
      const { baseUrl } = await server(on, 'working');
      expect(await failure(clientOf(baseUrl, { token: 'wrong-token' }).createPlant({ id: freshId(), name: 'n' }))).toEqual({
        code: ErrorCode.TokenRejected,
        status: 401,
        attempts: 1,
      });
      expect(await failure(clientOf(`${baseUrl}/v1`).createPlant({ id: freshId(), name: 'n' }))).toEqual({
        code: ErrorCode.NotFound,
        status: 404,
        attempts: 1,
      });
      const id = freshId();
      const room = (1 << 20) - `{"id":${id},"name":""}`.length;
      expect(await clientOf(baseUrl).createPlant({ id, name: 'y'.repeat(room) })).toEqual({ name: 'y'.repeat(room) });
      expect(await failure(clientOf(baseUrl).createPlant({ id: id + 1n, name: 'y'.repeat(room + 1) }))).toEqual({
        code: ErrorCode.BodyTooLarge,
        status: 413,
        attempts: 1,
      });
    });

    it('maps 1500 and 1502 without retrying them, and retries 1501 before reporting it', async ({ expect }) => {
      const plant = () => ({ id: freshId(), name: 'n' });
      expect(await failure(clientOf((await server(on, 'authenticate-throwing')).baseUrl).createPlant(plant()))).toEqual({
        code: ErrorCode.Internal,
        status: 500,
        attempts: 1,
      });
      expect(await failure(clientOf((await server(on, 'store-full')).baseUrl).createPlant(plant()))).toEqual({
        code: ErrorCode.StorageFull,
        status: 507,
        attempts: 1,
      });
      const retries: RetryInfo[] = [];
      const failing = clientOf((await server(on, 'store-failing')).baseUrl, {
        retry: { attempts: 3, initialDelayMs: 10, onRetry: (info) => retries.push(info) },
      });
      expect(await failure(failing.createPlant(plant()))).toEqual({ code: ErrorCode.StorageUnavailable, status: 503, attempts: 3 });
      expect(retries.map(({ error }) => error.code)).toEqual([1501, 1501]);
    });

    if (on.name.startsWith('Node')) {
      it('maps 1403 for a token too large for the headers', async ({ expect }) => {
        const client = clientOf((await server(on, 'working')).baseUrl, { token: 'a'.repeat(64 << 10) });
        expect(await failure(client.createPlant({ id: freshId(), name: 'n' }))).toEqual({ code: ErrorCode.HeadersTooLarge, status: 431, attempts: 1 });
      });
    }

    it('retries a create whose answer was cut off after the store kept it: 200, and stored once', async ({ expect }) => {
      const proxy = await startProxy(await server(on, 'working'));
      const id = freshId();
      const retries: RetryInfo[] = [];
      const client = clientOf(proxy.baseUrl, { retry: { ...RETRY, onRetry: (info) => retries.push(info) } });
      const broken = proxy.breakNext('answer');
      expect(await client.createPlant({ id, name: 'once', tag: 'cut' })).toEqual({ name: 'once', tag: 'cut' });
      // The answer the client never saw: the plant was stored before the cut.
      expect(await broken).toMatch(/^HTTP\/1\.1 200 /);
      expect(retries.map(({ error }) => error.code)).toEqual([ErrorCode.Network]);
      expect((await failure(client.createPlant({ id, name: 'twice' }))).code).toBe(ErrorCode.Conflict);
    });
  });
});

describe('the client on other runtimes', () => {
  const bundles = { script: join(temporary, 'client-script.mjs'), worker: join(temporary, 'client-worker.mjs') };
  beforeAll(async () => {
    // The client and the checks in one file each, as an application would ship them.
    await Promise.all(
      Object.entries(bundles).map(([name, outfile]) =>
        build({
          entryPoints: [fileURLToPath(new URL(`fixtures/client-${name}.ts`, import.meta.url))],
          outfile,
          bundle: true,
          format: 'esm',
          platform: 'neutral',
          target: 'es2022',
          logLevel: 'silent',
        }),
      ),
    );
  });

  /** Runs the checks with the client on `client`: a process for Node, Bun and Deno, a Worker under miniflare for workerd. */
  const runChecks = (client: string, baseUrl: string, label: string) => runClientBundle(client, bundles, baseUrl, label);

  // Each server runtime gets the int64 edges from a client on another runtime, and each client runtime sends them.
  const pairs: [client: string, server: string][] = [
    ['Deno', 'Node 26'],
    ['Bun', 'Node 22'],
    ['Node 26', 'Node 24'],
    ['Node 22', 'Bun'],
    ['Node 24', 'Deno'],
    ['workerd', 'workerd'],
  ];
  it.concurrent.for(pairs)(
    'client on %s, server on %s: both int64 extremes and 2^53 + 1 exactly, a number past 2^53 refused',
    async ([client, serverName], { expect }) => {
      const target = await start(runtime(serverName), 'working');
      const label = `${client} to ${serverName}`;
      const report = await runChecks(client, target.baseUrl, label);
      const plant = (id: bigint) => ({ name: edgeName(label, id), tag: 'edge' });
      expect(report).toEqual({
        serializer: 'rawJSON',
        created: EDGE_IDS.map(plant),
        replayed: EDGE_IDS.map(plant),
        conflicts: EDGE_IDS.map(() => ({ code: ErrorCode.Conflict, status: 409 })),
        unsafeNumber: { code: ErrorCode.InvalidInput, status: null },
      });
      // What the server kept, seen from here: each id holds its own plant, and its neighbour is free.
      const here = clientOf(target.baseUrl);
      for (const id of EDGE_IDS) {
        expect(await here.createPlant({ id, ...plant(id) })).toEqual(plant(id));
        const neighbour = id === INT64_MAX ? id - 1n : id + 1n;
        if (!EDGE_IDS.includes(neighbour)) expect(await here.createPlant({ id: neighbour, name: 'neighbour' })).toEqual({ name: 'neighbour' });
      }
    },
  );
});

/** What a hostile service did with one runtime's creates, seen from its side. */
interface Hostile {
  readonly baseUrl: string;
  /** Requests that reached the origin the redirect pointed to. */
  readonly elsewhere: () => number;
  /** Settles when the endless answer stopped: `byClient` when the client let go before the cap. */
  readonly endless: Promise<{ byClient: boolean }>;
  /** Settles when the client let go of the answer that announced a gigabyte. */
  readonly announced: Promise<void>;
}

/**
 * A raw node:http server on port 0 that answers each path under its base
 * URL as no Plant Store service would: `/redirect` with a 307 to another
 * origin, `/mismatch` with another plant, `/extra` with fields besides name and
 * tag, `/announced` with a Content-Length of a gigabyte and a few bytes,
 * `/endless` with an answer that goes on until the client lets go (or 256 MiB,
 * so that a client that reads on still ends the test).
 */
async function startHostile(): Promise<Hostile> {
  const cap = 256 << 20;
  let elsewhereRequests = 0;
  const elsewhere = createHttpServer((_req, res) => {
    elsewhereRequests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"n"}');
  });
  let endless!: (result: { byClient: boolean }) => void;
  let announced!: () => void;
  const server = createHttpServer((req, res) => {
    const route = req.url?.split('/')[1];
    if (route === 'redirect') return void res.writeHead(307, { location: `${hostOf(elsewhere)}/plants` }).end();
    if (route === 'mismatch') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"other"}');
    if (route === 'extra') {
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"name":"n","__proto__":{"polluted":true},"admin":true}');
    }
    if (route === 'announced') {
      res.on('close', () => announced());
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 30) }).write('{"name":"n"');
    }
    let written = 0;
    const chunk = Buffer.alloc(64 << 10, 'x');
    res.on('close', () => endless({ byClient: written < cap }));
    res.writeHead(200, { 'content-type': 'application/json' }).write('{"name":"n","pad":"');
    const pump = () => {
      while (!res.destroyed && written < cap) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end('"}');
    };
    pump();
  });
  for (const listening of [elsewhere, server]) {
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          listening.closeAllConnections();
          listening.close(() => resolve());
        }),
    );
  }
  return {
    baseUrl: hostOf(server),
    elsewhere: () => elsewhereRequests,
    endless: new Promise((resolve) => (endless = resolve)),
    announced: new Promise((resolve) => (announced = resolve)),
  };
}

function hostOf(server: HttpServer): string {
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/**
 * The checks a client runs against a hostile service, as one script: each
 * create's error code and status, and what a 200 with extra fields became. As
 * source text, bundled with the client for each runtime: a command for Node,
 * Bun and Deno, a Worker for workerd.
 */
const HOSTILE_CHECKS = `
import { createPlantClient, PlantStoreError } from '@plant-store/client';

async function hostileChecks(baseUrl, token) {
  const outcome = async (route) => {
    const client = createPlantClient({ baseUrl: baseUrl + '/' + route, token, retry: { attempts: 3, initialDelayMs: 10 } });
    try {
      const plant = await client.createPlant({ id: 1n, name: 'n' });
      return { keys: Object.keys(plant), plain: Object.getPrototypeOf(plant) === Object.prototype, polluted: 'polluted' in plant || 'polluted' in {} };
    } catch (error) {
      if (error instanceof PlantStoreError) return { code: error.code, status: error.status ?? null, attempts: error.attempts };
      throw error;
    }
  };
  const report = {};
  for (const route of ['redirect', 'mismatch', 'extra', 'announced', 'endless']) report[route] = await outcome(route);
  return report;
}
`;
const HOSTILE_ENTRIES = {
  script: `${HOSTILE_CHECKS}
const [baseUrl, token] = typeof Deno === 'undefined' ? process.argv.slice(2) : Deno.args;
console.log(JSON.stringify(await hostileChecks(baseUrl, token)));`,
  worker: `${HOSTILE_CHECKS}
export default { async fetch(request) { const { baseUrl, token } = await request.json(); return Response.json(await hostileChecks(baseUrl, token)); } };`,
};

describe('the client on every runtime against a service that redirects, lies and never stops answering', () => {
  const bundles = { script: join(temporary, 'hostile-script.mjs'), worker: join(temporary, 'hostile-worker.mjs') };
  beforeAll(async () => {
    await Promise.all(
      Object.entries(HOSTILE_ENTRIES).map(([name, contents]) =>
        build({
          stdin: { contents, loader: 'js', resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
          outfile: bundles[name as keyof typeof bundles],
          bundle: true,
          format: 'esm',
          platform: 'neutral',
          target: 'es2022',
          logLevel: 'silent',
        }),
      ),
    );
  });

  const runHostileChecks = (client: string, baseUrl: string) => runClientBundle(client, bundles, baseUrl);

  it.concurrent.for(['Node 22', 'Node 24', 'Node 26', 'Bun', 'Deno', 'workerd'])(
    'client on %s: a redirect is not followed, a lying 200 is refused, extra fields are dropped, an answer past the bound is cut off',
    async (client, { expect }) => {
      const hostile = await startHostile();
      expect(await runHostileChecks(client, hostile.baseUrl)).toEqual({
        redirect: { code: ErrorCode.Redirected, status: 307, attempts: 1 },
        mismatch: { code: ErrorCode.PlantMismatch, status: 200, attempts: 1 },
        extra: { keys: ['name'], plain: true, polluted: false },
        announced: { code: ErrorCode.AnswerTooLarge, status: 200, attempts: 1 },
        endless: { code: ErrorCode.AnswerTooLarge, status: 200, attempts: 1 },
      });
      expect(hostile.elsewhere()).toBe(0);
      // The client let go of both long answers: the server saw their connections close, the endless one before its cap.
      await hostile.announced;
      expect(await hostile.endless).toEqual({ byClient: true });
    },
  );
});

describe("the documentation's client snippets", () => {
  const snippets = ['client-create.ts', 'client-errors.ts', 'client-ids.ts', 'client-retry.ts'];
  let server: SpawnedServer;
  beforeAll(async () => {
    // The token the snippets show; they use distinct ids, so one server serves them all.
    server = await start(runtime('Node 24'), 'working', { PLANT_STORE_TOKENS: 's3cret-token' });
  });

  it.concurrent.for(snippets)('%s prints what its comments say', async (name, { expect }) => {
    const source = readFileSync(fileURLToPath(new URL(`../docs/snippets/${name}`, import.meta.url)), 'utf8');
    expect(source).toContain('http://127.0.0.1:8080');
    // Every `console.log(…); // output` line, in order.
    const expected = [...source.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map(([, output]) => output);
    expect(expected.length).toBeGreaterThan(0);
    const outfile = join(temporary, name.replace(/\.ts$/, '.mjs'));
    await build({
      stdin: { contents: source.replaceAll('http://127.0.0.1:8080', server.baseUrl), loader: 'ts', resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'es2022',
      logLevel: 'silent',
    });
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [outfile], { timeout: 20_000 }, (error, out, stderr) =>
        error ? reject(new Error(`${name}: ${error.message}\n${stderr}`)) : resolve(out),
      ),
    );
    expect(stdout.trimEnd().split('\n')).toEqual(expected);
  });
});

describe('retries across a server killed with SIGKILL and started again on its durable store', () => {
  // SQLite on Node 22, Node 24, Bun and Deno; D1 on workerd.
  const durable = ['Node 22', 'Node 24', 'Bun', 'Deno', 'workerd'];

  async function restartable(name: string): Promise<{ proxy: FaultProxy; killAndRestart: () => Promise<void> }> {
    const directory = mkdtempSync(join(temporary, 'durable-'));
    // The one directory Deno may write to; an explicit sqlite: path is not made for it.
    mkdirSync(join(directory, '.plant-store'));
    const env = name === 'workerd' ? {} : { PLANT_STORE_DATABASE_URL: 'sqlite:.plant-store/plants.db' };
    const first = await start(runtime(name), 'working', env, directory);
    expect(first.output()).toMatch(/\(store: (sqlite|d1) /);
    const proxy = await startProxy(first);
    return {
      proxy,
      async killAndRestart() {
        const current = proxy.target!;
        proxy.target = undefined;
        current.child.kill('SIGKILL');
        await current.exited;
        // Started again in the background, on the same file; the client retries meanwhile.
        void start(runtime(name), 'working', env, directory).then((next) => (proxy.target = next));
      },
    };
  }

  it.concurrent.for(durable)('%s: killed after storing, before its answer left: the retry replays 200', async (name, { expect }) => {
    const { proxy, killAndRestart } = await restartable(name);
    const retries: RetryInfo[] = [];
    const client = clientOf(proxy.baseUrl, { retry: { ...RETRY, onRetry: (info) => retries.push(info) } });
    const id = freshId();
    const killed = proxy.breakNext('answer', killAndRestart);
    expect(await client.createPlant({ id, name: 'survivor' })).toEqual({ name: 'survivor' });
    expect(await killed).toMatch(/^HTTP\/1\.1 200 /);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every(({ error }) => error.code === ErrorCode.Network)).toBe(true);
    expect(await failure(client.createPlant({ id, name: 'duplicate' }))).toMatchObject({ code: ErrorCode.Conflict, status: 409 });
    expect(await client.createPlant({ id, name: 'survivor' })).toEqual({ name: 'survivor' });
  });

  it.concurrent.for(durable)('%s: killed as the request arrived: the retry gets 200, stored once', async (name, { expect }) => {
    const { proxy, killAndRestart } = await restartable(name);
    const retries: RetryInfo[] = [];
    const client = clientOf(proxy.baseUrl, { retry: { ...RETRY, onRetry: (info) => retries.push(info) } });
    const id = freshId();
    const killed = proxy.breakNext('request-forwarded', killAndRestart);
    expect(await client.createPlant({ id, name: 'maybe', tag: 'unknown' })).toEqual({ name: 'maybe', tag: 'unknown' });
    expect(await killed).toMatch(/^POST \/plants HTTP\/1\.1\r\n/);
    expect(retries.length).toBeGreaterThan(0);
    expect(await failure(client.createPlant({ id, name: 'maybe' }))).toMatchObject({ code: ErrorCode.Conflict, status: 409 });
  });
});

describe('retries across a 503 from a frozen PostgreSQL', () => {
  const database = usePostgres();

  it('Node 26 on PostgreSQL: SIGSTOP makes the store time out (503, 1501); after SIGCONT the retry succeeds, one row', async () => {
    const server = await start(runtime('Node 26'), 'working', { PLANT_STORE_DATABASE_URL: database().url });
    const client = clientOf(server.baseUrl, { timeoutMs: 15_000 });
    // Warm the server's pool, so that its connections exist before the freeze.
    await client.createPlant({ id: freshId(), name: 'warm' });
    const sql = postgres(database().url, { max: 1, onnotice: () => {} });
    cleanups.push(() => sql.end({ timeout: 1 }));
    // Every process of the cluster but the one answering us: the postmaster (first line of its pid file) and every backend.
    const [pidFile] = await sql<{ file: string }[]>`select pg_read_file('postmaster.pid') as file`;
    const backends = await sql<{ pid: number }[]>`select pid from pg_stat_activity where pid <> pg_backend_pid()`;
    const pids = [Number(pidFile!.file.split('\n')[0]), ...backends.map(({ pid }) => pid)];
    let frozen = true;
    const thaw = () => {
      if (!frozen) return;
      frozen = false;
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    };
    cleanups.push(thaw);
    for (const pid of pids) process.kill(pid, 'SIGSTOP');

    const id = freshId();
    const retries: RetryInfo[] = [];
    const plant = await createPlantClient({
      baseUrl: server.baseUrl,
      token: CONFORMANCE_TOKEN,
      timeoutMs: 15_000,
      retry: {
        ...RETRY,
        onRetry: (info) => {
          retries.push(info);
          thaw();
        },
      },
    }).createPlant({ id, name: 'patient' });
    expect(plant).toEqual({ name: 'patient' });
    expect(retries[0]?.error).toMatchObject({ code: ErrorCode.StorageUnavailable, status: 503 });
    const rows = await sql<{ count: string }[]>`select count(*)::text as count from plants where id = ${id.toString()}`;
    expect(rows[0]?.count).toBe('1');
    expect((await failure(client.createPlant({ id, name: 'duplicate' }))).code).toBe(ErrorCode.Conflict);
  }, 40_000);
});
