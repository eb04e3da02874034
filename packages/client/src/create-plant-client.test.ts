// Runs under vitest on Node: the client against real node:http servers on port 0, the Node adapter's and raw ones that misbehave.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeHandler } from '@plant-store/adapter-node';
import { staticTokens, type Authenticate, type PlantStore } from '@plant-store/core';
import { createMemoryStore, type MemoryStore } from '@plant-store/store-memory';
import { anyString, int64 } from '@plant-store/testing';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPlantClient, ErrorCode, PlantStoreError, type PlantClientOptions, type RetryInfo } from './index.ts';

const TOKEN = 'client-test-token_0123';

/**
 * Runs before the handler; returns true when it answered (or broke) the
 * request itself. Faults are injected here, on the real connection.
 */
type Intercept = (req: IncomingMessage, res: ServerResponse, count: number) => boolean;

interface TestServer {
  readonly baseUrl: string;
  /** The store behind the server now; `reset()` swaps in an empty one. */
  store: MemoryStore;
  /**
   * Listens anew on another port and drops every connection to the old one (so
   * that no late request of a test counts for the next one), and swaps in an
   * empty store. A new origin, rather than the same one with its connections
   * cut: a client's pool could still hold a cut connection and fail the next
   * test's first attempt on it.
   */
  reset(): Promise<void>;
  /** Requests that reached the server since the last `reset()`. */
  requests: number;
  intercept: Intercept | undefined;
  close(): Promise<void>;
}

interface ServerOptions {
  readonly store?: PlantStore;
  readonly authenticate?: Authenticate;
  readonly storeTimeoutMs?: number;
  readonly requestId?: boolean;
}

/** A real node:http server on port 0 with the Node adapter over a memory store. */
async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  let server: Server;
  const state: TestServer = {
    baseUrl: '',
    store: createMemoryStore(),
    requests: 0,
    intercept: undefined,
    async reset() {
      const old = server;
      await listen();
      old.closeAllConnections();
      old.close();
      state.store = createMemoryStore();
      state.requests = 0;
      state.intercept = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  // Delegates to whatever store is current, so that each test and each property run starts empty.
  const delegating: PlantStore = {
    insertIfAbsent: (id, plant) => state.store.insertIfAbsent(id, plant),
    get: (id) => state.store.get(id),
  };
  const handler = createNodeHandler({
    store: options.store ?? delegating,
    authenticate: options.authenticate ?? staticTokens([TOKEN]),
    onError: () => {},
    ...(options.storeTimeoutMs === undefined ? {} : { storeTimeoutMs: options.storeTimeoutMs }),
    ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
  });
  const listen = async () => {
    server = createServer((req, res) => {
      state.requests++;
      if (state.intercept?.(req, res, state.requests) !== true) handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    (state as { baseUrl: string }).baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  await listen();
  return state;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

/** A client of the shared server with fast retries, so that tests stay short. */
function client(options: Partial<PlantClientOptions> = {}) {
  return createPlantClient({ baseUrl: server.baseUrl, token: TOKEN, retry: { initialDelayMs: 5, maxDelayMs: 50 }, ...options });
}

/** The error a failing call rejects with. */
async function failure(promise: Promise<unknown>): Promise<PlantStoreError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PlantStoreError);
  return error as PlantStoreError;
}

describe('createPlant', () => {
  it('creates a plant and answers the stored Plant, with and without tag', async () => {
    expect(await client().createPlant({ id: 1n, name: 'Monstera', tag: 'tropical' })).toEqual({ name: 'Monstera', tag: 'tropical' });
    expect(await client().createPlant({ id: 2, name: 'Fern' })).toEqual({ name: 'Fern' });
    expect(await server.store.get(1n)).toEqual({ name: 'Monstera', tag: 'tropical' });
    expect(await server.store.get(2n)).toEqual({ name: 'Fern' });
  });

  it('answers a replay with 200 and a different create with a Conflict error', async () => {
    const plant = { id: 7n, name: 'Fern', tag: 'green' };
    expect(await client().createPlant(plant)).toEqual({ name: 'Fern', tag: 'green' });
    expect(await client().createPlant(plant)).toEqual({ name: 'Fern', tag: 'green' });
    const error = await failure(client().createPlant({ ...plant, tag: 'blue' }));
    expect({ code: error.code, status: error.status, retryable: error.retryable, attempts: error.attempts }).toEqual({
      code: ErrorCode.Conflict,
      status: 409,
      retryable: false,
      attempts: 1,
    });
    expect(error.message).toBe('id: a plant with id 7 already exists with a different name or tag');
  });
});

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Answers with the contract's Error body, as the server would. */
function answerError(res: ServerResponse, status: number, code: number, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: code, message: `injected ${code}` }));
  return true;
}

/** Lets the handler store the create, then cuts the connection instead of sending its answer. */
function loseAnswer(res: ServerResponse): false {
  res.writeHead = (() => {
    res.socket?.destroy();
    return res;
  }) as typeof res.writeHead;
  return false;
}

describe('int64 ids', () => {
  it('sends both extremes and 2^53 + 1 exactly, as the server stores them', async () => {
    for (const id of [INT64_MIN, INT64_MAX, 9007199254740993n]) {
      expect(await client().createPlant({ id, name: `edge ${id}` })).toEqual({ name: `edge ${id}` });
      expect(await server.store.get(id)).toEqual({ name: `edge ${id}` });
      expect((await failure(client().createPlant({ id, name: 'other' }))).code).toBe(ErrorCode.Conflict);
    }
    // 2^53 + 1 and 2^53 are one double: a client that rounded would have taken 2^53.
    expect(await server.store.get(9007199254740992n)).toBeUndefined();
    expect(await client().createPlant({ id: 9007199254740992n, name: 'neighbour' })).toEqual({ name: 'neighbour' });
  });

  it('takes safe integer numbers as the same ids as their bigints', async () => {
    await client().createPlant({ id: Number.MAX_SAFE_INTEGER, name: 'max' });
    await client().createPlant({ id: -0, name: 'zero' });
    expect(await client().createPlant({ id: BigInt(Number.MAX_SAFE_INTEGER), name: 'max' })).toEqual({ name: 'max' });
    expect((await failure(client().createPlant({ id: 0n, name: 'other' }))).code).toBe(ErrorCode.Conflict);
  });

  it('refuses a number past 2^53, an id outside int64 and a non-integer before any request', async () => {
    const cases: [unknown, RegExp][] = [
      [2 ** 53 + 1, /beyond Number\.MAX_SAFE_INTEGER.*pass the id as a bigint/],
      [-(2 ** 53), /beyond Number\.MAX_SAFE_INTEGER/],
      [1e19, /beyond Number\.MAX_SAFE_INTEGER/],
      [INT64_MAX + 1n, /outside int64/],
      [INT64_MIN - 1n, /outside int64/],
      [1.5, /expected an integer/],
      [Number.NaN, /expected an integer/],
      [Infinity, /expected an integer/],
      ['5', /expected a bigint or a safe integer number, got string/],
      [null, /got null/],
    ];
    for (const [id, message] of cases) {
      const error = await failure(client().createPlant({ id: id as bigint, name: 'n' }));
      expect({ code: error.code, status: error.status, attempts: error.attempts, retryable: error.retryable }).toEqual({
        code: ErrorCode.InvalidInput,
        status: undefined,
        attempts: 0,
        retryable: false,
      });
      expect(error.message).toMatch(message);
    }
    const wrongName = await failure(client().createPlant({ id: 1n, name: 5 as unknown as string }));
    expect([wrongName.code, wrongName.message]).toEqual([ErrorCode.InvalidInput, 'name: expected a string, got number']);
    const wrongTag = await failure(client().createPlant({ id: 1n, name: 'n', tag: null as unknown as string }));
    expect([wrongTag.code, wrongTag.message]).toEqual([ErrorCode.InvalidInput, 'tag: expected a string or undefined, got null']);
    expect(server.requests).toBe(0);
  });

  it('sends any int64 exactly: the server stores that id and no neighbour (property)', async () => {
    await fc.assert(
      fc.asyncProperty(int64(), async (id) => {
        server.store = createMemoryStore();
        await client().createPlant({ id, name: 'a' });
        expect(await server.store.get(id)).toEqual({ name: 'a' });
        expect((await failure(client().createPlant({ id, name: 'b' }))).code).toBe(ErrorCode.Conflict);
        // Black box too: a neighbour is still free, so the id did not collapse onto it.
        const neighbour = id === INT64_MAX ? id - 1n : id + 1n;
        expect(await client().createPlant({ id: neighbour, name: 'b' })).toEqual({ name: 'b' });
      }),
      { numRuns: 60 },
    );
  });

  it('refuses any number beyond 2^53 and any bigint outside int64 without a request (property)', async () => {
    const unsafe = fc.oneof(fc.double({ min: 2 ** 53, noNaN: true }), fc.double({ max: -(2 ** 53), noNaN: true }));
    const outside = fc.oneof(fc.bigInt({ min: INT64_MAX + 1n, max: INT64_MAX * 4n }), fc.bigInt({ min: INT64_MIN * 4n, max: INT64_MIN - 1n }));
    await fc.assert(
      fc.asyncProperty(fc.oneof<[fc.Arbitrary<number | bigint>, fc.Arbitrary<number | bigint>]>(unsafe, outside), async (id) => {
        const result = await client().tryCreatePlant({ id, name: 'n' });
        expect(result.ok ? 'created' : result.error.code).toBe(ErrorCode.InvalidInput);
      }),
      { numRuns: 100 },
    );
    expect(server.requests).toBe(0);
  });
});

describe('round trip', () => {
  it('answers any valid NewPlant with exactly its name and tag, and replays it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(int64(), anyString(), fc.option(anyString(), { nil: undefined }), fc.boolean(), async (id, name, tag, asNumber) => {
        server.store = createMemoryStore();
        const sent = asNumber && id >= BigInt(Number.MIN_SAFE_INTEGER) && id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id;
        const plant = tag === undefined ? { name } : { name, tag };
        expect(await client().createPlant({ id: sent, ...plant })).toEqual(plant);
        expect(await server.store.get(id)).toEqual(plant);
        expect(await client().createPlant({ id, ...plant })).toEqual(plant);
        const other = tag === undefined ? { name, tag: '' } : { name };
        expect((await failure(client().createPlant({ id, ...other }))).code).toBe(ErrorCode.Conflict);
      }),
      { numRuns: 100 },
    );
  });

  it('answers a fresh object with only name and tag, whatever else the answer holds', async () => {
    server.intercept = (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"id":1,"name":"a","__proto__":{"polluted":true,"tag":"b"},"constructor":{"prototype":{"polluted":true}},"tag":"t","count":9007199254740993}');
      return true;
    };
    const plant = await client().createPlant({ id: 1n, name: 'a', tag: 't' });
    expect(plant).toStrictEqual({ name: 'a', tag: 't' });
    expect(Object.keys(plant)).toEqual(['name', 'tag']);
    expect(Object.getPrototypeOf(plant)).toBe(Object.prototype);
    expect('polluted' in plant || 'polluted' in {}).toBe(false);
    // A name or tag found only on the answer's __proto__ is no name or tag.
    server.intercept = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"__proto__":{"name":"a"}}');
      return true;
    };
    expect((await failure(client().createPlant({ id: 1n, name: 'a' }))).code).toBe(ErrorCode.UnexpectedResponse);
  });
});

describe('errors: every code a client can meet', () => {
  const servers: TestServer[] = [];
  afterAll(() => Promise.all(servers.map((started) => started.close())));
  async function faulty(options: ServerOptions): Promise<TestServer> {
    const started = await startServer(options);
    servers.push(started);
    return started;
  }
  async function errorOf(target: TestServer, options: Partial<PlantClientOptions> = {}): Promise<PlantStoreError> {
    return failure(
      createPlantClient({ baseUrl: target.baseUrl, token: TOKEN, retry: { initialDelayMs: 5, maxDelayMs: 20 }, ...options }).createPlant({ id: 1n, name: 'n' }),
    );
  }
  const summary = (error: PlantStoreError) => ({ code: error.code, status: error.status, retryable: error.retryable, attempts: error.attempts });

  it('1101 for a rejected token, not retried', async () => {
    expect(summary(await errorOf(server, { token: 'wrong-token' }))).toEqual({ code: ErrorCode.TokenRejected, status: 401, retryable: false, attempts: 1 });
  });

  it('1200 for a base URL where no service is mounted', async () => {
    expect(summary(await errorOf(server, { baseUrl: `${server.baseUrl}/v1` }))).toEqual({
      code: ErrorCode.NotFound,
      status: 404,
      retryable: false,
      attempts: 1,
    });
  });

  it('1300 for a conflict', async () => {
    await client().createPlant({ id: 1n, name: 'first' });
    expect(summary(await errorOf(server))).toEqual({ code: ErrorCode.Conflict, status: 409, retryable: false, attempts: 1 });
  });

  it('1400 for a body over the limit', async () => {
    const error = await failure(client().createPlant({ id: 1n, name: 'x'.repeat(1 << 20) }));
    expect(summary(error)).toEqual({ code: ErrorCode.BodyTooLarge, status: 413, retryable: false, attempts: 1 });
  });

  it('1500 when the verifier throws, not retried', async () => {
    const target = await faulty({
      authenticate: () => {
        throw new Error('verifier down');
      },
    });
    expect(summary(await errorOf(target))).toEqual({ code: ErrorCode.Internal, status: 500, retryable: false, attempts: 1 });
  });

  it('1501 when the store fails, after every attempt', async () => {
    const target = await faulty({ store: { insertIfAbsent: () => Promise.reject(new Error('down')), get: () => Promise.resolve(undefined) } });
    const error = await errorOf(target, { retry: { attempts: 3, initialDelayMs: 5, maxDelayMs: 20 } });
    expect(summary(error)).toEqual({ code: ErrorCode.StorageUnavailable, status: 503, retryable: true, attempts: 3 });
    expect(target.requests).toBe(3);
    expect(error.message).toMatch(/retry/);
  });

  it('1501 when the store does not answer in time', async () => {
    const target = await faulty({ store: { insertIfAbsent: () => new Promise(() => {}), get: () => Promise.resolve(undefined) }, storeTimeoutMs: 50 });
    expect(summary(await errorOf(target, { retry: { attempts: 2, initialDelayMs: 5 } }))).toEqual({
      code: ErrorCode.StorageUnavailable,
      status: 503,
      retryable: true,
      attempts: 2,
    });
  });

  it('1502 when the store is full, not retried', async () => {
    const target = await faulty({ store: { insertIfAbsent: () => ({ status: 'full' }), get: () => Promise.resolve(undefined) } });
    expect(summary(await errorOf(target))).toEqual({ code: ErrorCode.StorageFull, status: 507, retryable: false, attempts: 1 });
  });

  it('1402 (408) is retried like 503', async () => {
    server.intercept = (_req, res, count) => count === 1 && answerError(res, 408, 1402, { connection: 'close' });
    expect(await client().createPlant({ id: 1n, name: 'n' })).toEqual({ name: 'n' });
    expect(server.requests).toBe(2);
  });

  it('unexpected-response for an answer outside the contract, retried only for gateway statuses', async () => {
    server.intercept = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>');
      return true;
    };
    const gateway = await failure(client({ retry: { attempts: 2, initialDelayMs: 5 } }).createPlant({ id: 1n, name: 'n' }));
    expect(summary(gateway)).toEqual({ code: ErrorCode.UnexpectedResponse, status: 502, retryable: true, attempts: 2 });
    expect(gateway.message).toBe('the server answered 502 without a known Error body: <html><body>Bad Gateway</body></html>');

    server.intercept = (_req, res) => answerError(res, 400, 9999);
    expect(summary(await failure(client().createPlant({ id: 1n, name: 'n' })))).toEqual({
      code: ErrorCode.UnexpectedResponse,
      status: 400,
      retryable: false,
      attempts: 1,
    });

    for (const body of ['{"tag":"no name"}', '{"name":5}', '{"name":"a","tag":null}', '[]', 'not json', '']) {
      server.intercept = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
        return true;
      };
      expect(summary(await failure(client().createPlant({ id: 1n, name: 'n' })))).toEqual({
        code: ErrorCode.UnexpectedResponse,
        status: 200,
        retryable: false,
        attempts: 1,
      });
    }
  });

  it('network when nothing listens, after every attempt', async () => {
    const closed = await startServer();
    await closed.close();
    const error = await failure(
      createPlantClient({ baseUrl: closed.baseUrl, token: TOKEN, retry: { attempts: 3, initialDelayMs: 5 } }).createPlant({ id: 1n, name: 'n' }),
    );
    expect(summary(error)).toEqual({ code: ErrorCode.Network, status: undefined, retryable: true, attempts: 3 });
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("carries the answer's x-request-id, when the server sends one", async () => {
    const target = await faulty({ requestId: true });
    await createPlantClient({ baseUrl: target.baseUrl, token: TOKEN }).createPlant({ id: 1n, name: 'first' });
    const error = await errorOf(target);
    expect(error.code).toBe(ErrorCode.Conflict);
    expect(error.requestId).toMatch(/^\S+$/);
    expect((await errorOf(server, { token: 'wrong-token' })).requestId).toBeUndefined();
  });

  it('returns failures as values from tryCreatePlant', async () => {
    await client().createPlant({ id: 1n, name: 'first' });
    const result = await client().tryCreatePlant({ id: 1n, name: 'second' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe(ErrorCode.Conflict);
    expect(await client().tryCreatePlant({ id: 1n, name: 'first' })).toEqual({ ok: true, value: { name: 'first' } });
  });

  it('refuses bad options at once with a TypeError', () => {
    const base = { baseUrl: server.baseUrl, token: TOKEN };
    expect(() => createPlantClient({ ...base, token: '' })).toThrow(TypeError);
    expect(() => createPlantClient({ ...base, token: 'two words' })).toThrow(/bearer token/);
    expect(() => createPlantClient({ ...base, baseUrl: 'ftp://example.com' })).toThrow(/http: or https:/);
    expect(() => createPlantClient({ ...base, baseUrl: 'not a url' })).toThrow(TypeError);
    expect(() => createPlantClient({ ...base, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createPlantClient({ ...base, retry: { attempts: 1.5 } })).toThrow(/retry.attempts must be a positive integer/);
    // A timer past 2^31 - 1 ms fires at once: a wait that long is refused, not cut to nothing.
    expect(() => createPlantClient({ ...base, timeoutMs: 2 ** 31 })).toThrow(/timeoutMs must be at most 2147483647/);
    expect(() => createPlantClient({ ...base, retry: { maxElapsedMs: 1e10 } })).toThrow(/retry.maxElapsedMs must be at most/);
    expect(() => createPlantClient({ ...base, retry: { maxDelayMs: 1e10 } })).toThrow(/retry.maxDelayMs must be at most/);
    expect(() => createPlantClient({ ...base, timeoutMs: 2 ** 31 - 1, retry: { attempts: 1_000_000 } })).not.toThrow();
  });

  it('refuses a base URL with a user or password, without repeating it', () => {
    // Node's fetch refused such a URL (each create a network error naming the password), Bun dropped the pair, Deno
    // sent it as Basic in place of the token.
    // The last two are no URL at all: the runtime's own error repeated the text (Deno in its message, Node and Bun in `input`).
    for (const baseUrl of [
      'http://user:pa55word@127.0.0.1:1/',
      'http://user@127.0.0.1:1/',
      'http://:pa55word@127.0.0.1:1/',
      'http://user:pa55word@127.0.0.1:99999/',
      'http://user:pa55word@[::1/',
    ]) {
      let thrown: unknown;
      try {
        createPlantClient({ baseUrl, token: TOKEN });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, baseUrl).toBeInstanceOf(TypeError);
      expect(JSON.stringify({ ...(thrown as object), message: (thrown as TypeError).message }), baseUrl).not.toMatch(/pa55word|user@/);
    }
  });
});

describe('retries', () => {
  it('retries 503 with backoff and succeeds, once stored', async () => {
    server.intercept = (_req, res, count) => count <= 2 && answerError(res, 503, 1501);
    const retries: RetryInfo[] = [];
    const plant = await client({ retry: { initialDelayMs: 20, maxDelayMs: 1000, onRetry: (info) => retries.push(info) } }).createPlant({ id: 1n, name: 'n' });
    expect(plant).toEqual({ name: 'n' });
    expect(server.requests).toBe(3);
    expect(retries.map(({ attempt, error }) => [attempt, error.code])).toEqual([
      [1, 1501],
      [2, 1501],
    ]);
    // Equal jitter: the upper half of 20 ms, then of 40 ms.
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(10);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(20);
    expect(retries[1]!.delayMs).toBeGreaterThanOrEqual(20);
    expect(retries[1]!.delayMs).toBeLessThanOrEqual(40);
  });

  it('gets 200 when the answer to a stored create was lost, and stores it once', async () => {
    server.intercept = (_req, res, count) => count === 1 && loseAnswer(res);
    const retries: RetryInfo[] = [];
    expect(await client({ retry: { initialDelayMs: 5, onRetry: (info) => retries.push(info) } }).createPlant({ id: 5n, name: 'once' })).toEqual({
      name: 'once',
    });
    expect(retries.map(({ error }) => error.code)).toEqual([ErrorCode.Network]);
    expect(server.store.size).toBe(1);
    expect((await failure(client().createPlant({ id: 5n, name: 'twice' }))).code).toBe(ErrorCode.Conflict);
  });

  it('reports a 409 met on a retry as the conflict it is', async () => {
    server.intercept = (_req, res, count) => {
      if (count !== 1) return false;
      // While the first attempt fails, another client takes the id.
      server.store.insertIfAbsent(9n, { name: 'someone else' });
      return answerError(res, 503, 1501);
    };
    const error = await failure(client().createPlant({ id: 9n, name: 'mine' }));
    expect([error.code, error.status, error.attempts]).toEqual([ErrorCode.Conflict, 409, 2]);
  });

  it('follows Retry-After', async () => {
    server.intercept = (_req, res, count) => count === 1 && answerError(res, 503, 1501, { 'retry-after': '1' });
    const started = Date.now();
    const retries: RetryInfo[] = [];
    await client({ retry: { initialDelayMs: 5, onRetry: (info) => retries.push(info) } }).createPlant({ id: 1n, name: 'n' });
    expect(retries.map(({ delayMs }) => delayMs)).toEqual([1000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('backs off as usual past a Retry-After that is neither seconds nor an HTTP date', async () => {
    // Date.parse reads 'x 1' as 2001 (no wait at all) and 'Retry 2099' as the year 2099 (past any budget).
    for (const retryAfter of ['x 1', 'Retry 2099']) {
      server.intercept = (_req, res, count) => count <= 2 && answerError(res, 503, 1501, { 'retry-after': retryAfter });
      const retries: RetryInfo[] = [];
      await client({ retry: { initialDelayMs: 40, maxDelayMs: 40, onRetry: (info) => retries.push(info) } }).createPlant({ id: 1n, name: 'n' });
      // backoffDelay's jitter keeps each wait in the upper half of the 40 ms.
      expect(
        retries.map(({ delayMs }) => delayMs >= 20 && delayMs <= 40),
        retryAfter,
      ).toEqual([true, true]);
      await server.reset();
    }
  });

  it('gives up at once when Retry-After outlasts the time left', async () => {
    server.intercept = (_req, res) => answerError(res, 503, 1501, { 'retry-after': '120' });
    const started = Date.now();
    const error = await failure(client({ retry: { maxElapsedMs: 5_000 } }).createPlant({ id: 1n, name: 'n' }));
    expect([error.code, error.attempts, error.retryable]).toEqual([ErrorCode.StorageUnavailable, 1, true]);
    // Not after the 120 s it was told to wait.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops within maxElapsedMs, however many attempts are allowed', async () => {
    server.intercept = (_req, res) => answerError(res, 503, 1501);
    const started = Date.now();
    const error = await failure(
      client({ retry: { attempts: 1_000, initialDelayMs: 20, maxDelayMs: 50, maxElapsedMs: 500 } }).createPlant({ id: 1n, name: 'n' }),
    );
    const elapsed = Date.now() - started;
    // The last attempt may get only the end of the budget and time out: then the 503 before it is its cause.
    const reason = error.code === ErrorCode.Timeout ? (error.cause as PlantStoreError) : error;
    expect(reason.code).toBe(ErrorCode.StorageUnavailable);
    expect(error.attempts).toBeGreaterThan(3);
    // About 500 ms; 1,000 attempts at up to 50 ms apart would take 50 s.
    expect(elapsed).toBeLessThan(5_000);
  });

  it('sends once with retry: false', async () => {
    server.intercept = (_req, res) => answerError(res, 503, 1501);
    expect((await failure(client({ retry: false }).createPlant({ id: 1n, name: 'n' }))).attempts).toBe(1);
    expect(server.requests).toBe(1);
  });
});

describe('timeouts and aborts', () => {
  it('times out an attempt that gets no answer, and retries it', async () => {
    // The first request is held forever; it never reaches the store.
    server.intercept = (_req, _res, count) => count === 1;
    const retries: RetryInfo[] = [];
    const plant = await client({ timeoutMs: 200, retry: { initialDelayMs: 5, onRetry: (info) => retries.push(info) } }).createPlant({ id: 1n, name: 'n' });
    expect(plant).toEqual({ name: 'n' });
    expect(retries.map(({ error }) => [error.code, error.retryable])).toEqual([[ErrorCode.Timeout, true]]);
  });

  it('times out an answer whose body stalls', async () => {
    server.intercept = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('{"name":');
      return true;
    };
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 200, retry: false }).createPlant({ id: 1n, name: 'n' }));
    expect([error.code, error.status, error.attempts]).toEqual([ErrorCode.Timeout, undefined, 1]);
    // The 200 ms timeout, not the test's own.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("stops at the caller's abort, mid-request, and does not retry", async () => {
    server.intercept = () => true;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 100);
    const error = await failure(client({ timeoutMs: 5_000 }).createPlant({ id: 1n, name: 'n' }, { signal: controller.signal }));
    expect([error.code, error.attempts, error.retryable]).toEqual([ErrorCode.Aborted, 1, false]);
    expect((error.cause as Error).message).toBe('user left');
    expect(server.requests).toBe(1);
  });

  it('stops at an abort during the backoff wait', async () => {
    server.intercept = (_req, res) => answerError(res, 503, 1501);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await failure(
      client({ retry: { initialDelayMs: 10_000, maxDelayMs: 10_000 } }).createPlant({ id: 1n, name: 'n' }, { signal: controller.signal }),
    );
    expect([error.code, error.attempts]).toEqual([ErrorCode.Aborted, 1]);
    // At the abort, not after the 10 s backoff.
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('times out and aborts through a fetch option that does not pass the signal on', async () => {
    // A logging fetch that forwards everything but the signal: the client still ends each attempt on time.
    const forgetful: PlantClientOptions['fetch'] = (input, { signal: _signal, ...init }) => fetch(input, init);
    server.intercept = () => true;
    let started = Date.now();
    let error = await failure(client({ fetch: forgetful, timeoutMs: 200, retry: false }).createPlant({ id: 1n, name: 'n' }));
    expect([error.code, error.attempts]).toEqual([ErrorCode.Timeout, 1]);
    expect(Date.now() - started).toBeLessThan(5_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 100);
    started = Date.now();
    error = await failure(client({ fetch: forgetful, timeoutMs: 60_000 }).createPlant({ id: 2n, name: 'n' }, { signal: controller.signal }));
    expect([error.code, error.attempts]).toEqual([ErrorCode.Aborted, 1]);
    expect(Date.now() - started).toBeLessThan(5_000);
    // A body that stalls after its head, read through the same fetch.
    server.intercept = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('{"name":');
      return true;
    };
    started = Date.now();
    error = await failure(client({ fetch: forgetful, timeoutMs: 200, retry: false }).createPlant({ id: 3n, name: 'n' }));
    expect([error.code, error.attempts]).toEqual([ErrorCode.Timeout, 1]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const error = await failure(client().createPlant({ id: 1n, name: 'n' }, { signal: AbortSignal.abort() }));
    expect([error.code, error.attempts]).toEqual([ErrorCode.Aborted, 0]);
    expect(server.requests).toBe(0);
  });
});

/** A bare node:http server on port 0, outside the contract: it answers every request with `answer`. */
interface RawServer {
  readonly baseUrl: string;
  /** Requests that reached it. */
  readonly requests: number;
  close(): Promise<void>;
}

async function startRaw(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<RawServer> {
  let requests = 0;
  const raw = createServer((req, res) => {
    requests++;
    answer(req, res);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        raw.closeAllConnections();
        raw.close(() => resolve());
      }),
  };
}

/** Answers 200 with `body`, written in pieces of 16 KiB without a Content-Length, so that the client must count as it reads. */
function answerChunked(res: ServerResponse, body: string, status = 200): true {
  res.writeHead(status, { 'content-type': 'application/json' });
  for (let at = 0; at < body.length; at += 16_384) res.write(body.slice(at, at + 16_384));
  res.end();
  return true;
}

/** The bound for a create whose body is `bytes` long, as docs/client.md gives it. */
const boundFor = (bytes: number) => 64 * 1024 + 6 * bytes;

describe('answers the client does not trust', () => {
  const summary = (error: PlantStoreError) => ({ code: error.code, status: error.status, retryable: error.retryable, attempts: error.attempts });
  let elsewhere: RawServer;
  beforeAll(async () => {
    // Another origin that would gladly take the plant and answer it as created.
    elsewhere = await startRaw((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { name, tag } = JSON.parse(body) as { name: string; tag?: string };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, tag }));
      });
    });
  });
  afterAll(() => elsewhere.close());

  it('follows no redirect: any 3xx is a redirected error, never retried, and nothing reaches the other origin', async () => {
    const statuses = [300, 301, 302, 303, 304, 305, 307, 308];
    for (const status of statuses) {
      server.intercept = (_req, res) => {
        res.writeHead(status, { location: `${elsewhere.baseUrl}/plants` }).end();
        return true;
      };
      const error = await failure(client().createPlant({ id: 1n, name: 'n' }));
      expect(summary(error)).toEqual({ code: ErrorCode.Redirected, status, retryable: false, attempts: 1 });
      expect(error.message).toContain(`${elsewhere.baseUrl}/plants`);
    }
    // Not to its own origin either: the service answers a create itself.
    server.intercept = (_req, res) => {
      res.writeHead(308, { location: '/v2/plants' }).end('moved');
      return true;
    };
    expect(summary(await failure(client().createPlant({ id: 1n, name: 'n' })))).toEqual({
      code: ErrorCode.Redirected,
      status: 308,
      retryable: false,
      attempts: 1,
    });
    expect(server.requests).toBe(statuses.length + 1);
    expect(elsewhere.requests).toBe(0);
    expect(server.store.size).toBe(0);
  });

  it('does not trust an answer that a fetch option reached by following a redirect anyway', async () => {
    server.intercept = (_req, res) => {
      res.writeHead(307, { location: `${elsewhere.baseUrl}/plants` }).end();
      return true;
    };
    const following = client({ fetch: (input, init) => globalThis.fetch(input, { ...init, redirect: 'follow' }) });
    const error = await failure(following.createPlant({ id: 1n, name: 'n' }));
    expect(summary(error)).toEqual({ code: ErrorCode.Redirected, status: 200, retryable: false, attempts: 1 });
    expect(error.message).toContain(elsewhere.baseUrl);
  });

  it('refuses a 200 whose Plant is not the one sent, without retrying', async () => {
    const cases: [sent: { name: string; tag?: string }, answer: string][] = [
      [{ name: 'n' }, '{"name":"other"}'],
      [{ name: 'n' }, '{"name":"n","tag":""}'],
      [{ name: 'n', tag: 't' }, '{"name":"n"}'],
      [{ name: 'n', tag: 't' }, '{"name":"n","tag":"T"}'],
      [{ name: '\ud800' }, '{"name":"\\ufffd"}'],
    ];
    for (const [sent, answer] of cases) {
      server.intercept = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
        return true;
      };
      const error = await failure(client().createPlant({ id: 1n, ...sent }));
      expect(summary(error)).toEqual({ code: ErrorCode.PlantMismatch, status: 200, retryable: false, attempts: 1 });
    }
    expect(server.requests).toBe(cases.length);
  });

  it('reads an answer of exactly its bound and refuses one byte more, counted as it streams', async () => {
    const bound = boundFor('{"id":1,"name":"n"}'.length);
    const padded = (bytes: number) => `{"name":"n"}${' '.repeat(bytes - '{"name":"n"}'.length)}`;
    server.intercept = (_req, res) => answerChunked(res, padded(bound));
    expect(await client().createPlant({ id: 1n, name: 'n' })).toEqual({ name: 'n' });
    server.intercept = (_req, res) => answerChunked(res, padded(bound + 1));
    const error = await failure(client().createPlant({ id: 1n, name: 'n' }));
    expect(summary(error)).toEqual({ code: ErrorCode.AnswerTooLarge, status: 200, retryable: false, attempts: 1 });
    expect(error.message).toContain(`more than ${bound} bytes`);
    // An Error body past the bound is refused alike, and a 503 so refused is not retried.
    server.intercept = (_req, res) => answerChunked(res, `{"error":1501,"message":"${'m'.repeat(bound)}"}`, 503);
    expect(summary(await failure(client().createPlant({ id: 2n, name: 'n' })))).toEqual({
      code: ErrorCode.AnswerTooLarge,
      status: 503,
      retryable: false,
      attempts: 1,
    });
    expect(server.requests).toBe(3);
  });

  it('grows the bound with the plant: a name sent as 100,000 bytes comes back written as \\u escapes, six times larger', async () => {
    const name = 'a'.repeat(100_000);
    server.intercept = (_req, res) => answerChunked(res, `{"name":"${'\\u0061'.repeat(name.length)}"}`);
    expect(await client().createPlant({ id: 1n, name })).toEqual({ name });
  });

  it('refuses a Content-Length past the bound before reading, and lets the connection go', async () => {
    let closed!: Promise<void>;
    server.intercept = (_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      // A gigabyte announced, a few bytes sent, then nothing: a client that waited for it would time out instead.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 30) }).write('{"name":"n"');
      return true;
    };
    const error = await failure(client().createPlant({ id: 1n, name: 'n' }));
    expect(summary(error)).toEqual({ code: ErrorCode.AnswerTooLarge, status: 200, retryable: false, attempts: 1 });
    expect(error.message).toContain(`a Content-Length of ${2 ** 30} bytes`);
    await closed;
  });
});
