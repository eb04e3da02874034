// Cost per valid create in one process, with no sockets and no load generator:
// what a contender's own code costs, apart from the kernel's network path and
// wrk's share of the cores, which dominate and blur the wrk table on a small
// machine. Run by `pnpm bench` (bench/run.mjs), one process per contender and
// round; by hand: `<runtime> bench/in-process.mjs <contender>`, which prints
// `{"nsPerRequest": …}`.
//
// - `node-*` contenders are `node:http` request listeners. Requests reach them
//   through Node's own HTTP server (llhttp, IncomingMessage, ServerResponse),
//   fed as raw bytes on in-memory sockets, 50 connections with one request
//   in flight each; the answers' bytes are checked for 200 and dropped.
// - `fetch-*` contenders are Fetch handlers, called with `Request`s built
//   beforehand (with the Content-Length a server's requests carry, and their
//   body as bytes, as a server's requests have it: a body given as a string
//   lets Deno's `request.text()` hand the string back undecoded, a shortcut
//   no served request has); each answer's status is checked.
import { createServer } from 'node:http';
import { Duplex } from 'node:stream';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { leanFetchHandler } from './servers/baseline-fetch.mjs';
import { checksFetchHandler } from './servers/checks-fetch.mjs';
import { checksNodeListener } from './servers/checks-node-listener.mjs';
import { BENCH_STORE_BOUNDS, token } from './servers/baseline-logic.mjs';
import { leanNodeListener } from './servers/baseline-node-listener.mjs';

/** @typedef {(request: Request) => Promise<Response>} Handler */

// The table's counts; bench/instructions.mjs sets its own through the environment.
const WARMUP_REQUESTS = Number(process.env.BENCH_IN_PROCESS_WARMUP ?? 60_000);
const BATCH_REQUESTS = Number(process.env.BENCH_IN_PROCESS_BATCH ?? 20_000);
const BATCHES = Number(process.env.BENCH_IN_PROCESS_BATCHES ?? 10);
const CONNECTIONS = 50;
const encoder = new TextEncoder();

const handlerOptions = () => ({ store: createMemoryStore(BENCH_STORE_BOUNDS), authenticate: staticTokens([token]), requestId: true });
/** The bearer token the requests carry: the static token, or the JWT of the contender that verifies JWTs. */
let bearer = token;

/**
 * Plant Store's Node adapter verifying an RS256 JWT with `jwtAuthenticate`, given `options` (the
 * cache of verified tokens at its defaults, or off); the requests carry that JWT.
 * @param {{ tokenCacheMaxEntries?: number }} options
 * @returns {Promise<import('node:http').Server>}
 */
async function jwtContender(options) {
  const [{ createNodeHandler }, { jwtAuthenticate }, jose] = await Promise.all([
    import('@plant-store/adapter-node'),
    import('@plant-store/auth-jwt'),
    import('jose'),
  ]);
  const { publicKey, privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const issuer = 'https://issuer.example/';
  const audience = 'https://plants.example';
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid: 'bench', alg: 'RS256' };
  bearer = await new jose.SignJWT({ scope: 'plants:write' })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setExpirationTime('2h')
    .sign(privateKey);
  const authenticate = jwtAuthenticate({
    issuer,
    audience,
    keys: [/** @type {import('@plant-store/auth-jwt').PublicJwk} */ (publicJwk)],
    requiredScope: 'plants:write',
    ...options,
  });
  return listening(createServer(createNodeHandler({ ...handlerOptions(), authenticate })));
}

/** The contenders on Node's HTTP server: each resolves to a listening server. */
const NODE_CONTENDERS = /** @type {Record<string, () => Promise<import('node:http').Server>>} */ ({
  'node-baseline': () => listening(createServer(leanNodeListener())),
  // Plant Store's checks by hand, without its structure: what the contract's work costs on its own.
  'node-checks': () => listening(createServer(checksNodeListener())),
  'node-plant-store': async () => {
    const { createNodeHandler } = await import('@plant-store/adapter-node');
    return listening(createServer(createNodeHandler(handlerOptions())));
  },
  // A JWT (RS256, as identity providers sign by default), its key already cached, the same token on
  // every request: after the first, the verifier's cache of verified tokens answers (what a client
  // that reuses its access token costs beside the static token above).
  'node-plant-store-jwt': () => jwtContender({}),
  // The same with the cache of verified tokens off: a signature verified on every request.
  'node-plant-store-jwt-verify-each': () => jwtContender({ tokenCacheMaxEntries: 0 }),
  // The overload gate at its defaults, and a per-token rate limit never reached: what each costs when on.
  'node-plant-store-overload': async () => {
    const { createNodeHandler } = await import('@plant-store/adapter-node');
    return listening(createServer(createNodeHandler({ ...handlerOptions(), overload: {} })));
  },
  'node-plant-store-rate-limit': async () => {
    const { createNodeHandler } = await import('@plant-store/adapter-node');
    return listening(createServer(createNodeHandler({ ...handlerOptions(), rateLimit: { limit: 1_000_000_000, windowSeconds: 3600 } })));
  },
  // The metrics on (counted per request, never scraped): what they cost when on.
  'node-plant-store-metrics': async () => {
    const { createNodeHandler } = await import('@plant-store/adapter-node');
    return listening(createServer(createNodeHandler({ ...handlerOptions(), metrics: true })));
  },
  // Traces on: the OpenTelemetry SDK registered, as an operator's tracing setup registers it, a server
  // span and a store span per create, batched for an exporter that drops them (what exporting costs
  // depends on the exporter, not on Plant Store).
  'node-plant-store-traces': async () => {
    const [{ createNodeHandler }, { loadOpenTelemetryTracer }, { trace }, { BasicTracerProvider, BatchSpanProcessor }] = await Promise.all([
      import('@plant-store/adapter-node'),
      import('@plant-store/server'),
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-base'),
    ]);
    /** @type {import('@opentelemetry/sdk-trace-base').SpanExporter} */
    const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }));
    const tracer = await loadOpenTelemetryTracer();
    if (tracer === undefined) throw new Error('in-process.mjs: no tracer, though the SDK is registered');
    return listening(createServer(createNodeHandler({ ...handlerOptions(), tracer })));
  },
  // The standalone server's serve(), with the handler options every standalone server has.
  'node-plant-store-standalone': async () => {
    const [{ serve }, { docsPage }] = await Promise.all([import('@plant-store/server'), import('@plant-store/docs-page')]);
    return (await serve({ ...handlerOptions(), health: true, docs: docsPage, host: '127.0.0.1', port: 0, accessLog: false })).server;
  },
  'node-whatwg-baseline': async () => {
    const { createServerAdapter, Response } = await import('@whatwg-node/server');
    return listening(createServer(createServerAdapter(leanFetchHandler(Response))));
  },
  'node-whatwg-plant-store': async () => {
    const { createNodeServerAdapter } = await import('@plant-store/adapter-fetch/node');
    return listening(createServer(createNodeServerAdapter(handlerOptions())));
  },
});

/** The Fetch handlers, on the runtime's own `Request` and `Response`. */
const FETCH_CONTENDERS = /** @type {Record<string, () => Handler>} */ ({
  'fetch-baseline': () => leanFetchHandler(),
  'fetch-checks': () => checksFetchHandler(),
  'fetch-plant-store': () => createFetchHandler(handlerOptions()),
  // Not a row of the table: for comparing builds of the core with metrics on, on Bun and Deno.
  'fetch-plant-store-metrics': () => createFetchHandler({ ...handlerOptions(), metrics: true }),
});

/**
 * Listening on a free loopback port, though nothing connects: a closed server's
 * requests are answered as draining.
 * @param {import('node:http').Server} server
 * @returns {Promise<import('node:http').Server>}
 */
const listening = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));

// Past 2^31, as wrk's ids are, so that no engine keeps them as small integers.
let nextId = 10_000_000_000;
/** A valid create's body, with an id not used before. */
const body = () => `{"id":${nextId++},"name":"Monstera","tag":"tropical"}`;

/**
 * An in-memory socket: Node's server reads the requests pushed into it, and
 * the socket counts the answers Node writes to it (each starts with its
 * status line).
 */
class MemorySocket extends Duplex {
  remoteAddress = '127.0.0.1';
  remotePort = 40_000;
  localAddress = '127.0.0.1';
  localPort = 8080;
  /** @param {() => void} onAnswer */
  constructor(onAnswer) {
    super();
    this.onAnswer = onAnswer;
  }
  /** @override */
  _read() {}
  /** @override @param {Buffer} chunk @param {BufferEncoding} _encoding @param {() => void} callback */
  _write(chunk, _encoding, callback) {
    this.seen(chunk);
    callback();
  }
  /** @override @param {{ chunk: Buffer | string }[]} chunks @param {() => void} callback */
  _writev(chunks, callback) {
    for (const { chunk } of chunks) this.seen(chunk);
    callback();
  }
  /** @param {Buffer | string} chunk */
  seen(chunk) {
    const start = typeof chunk === 'string' ? chunk.slice(0, 12) : chunk.toString('latin1', 0, 12);
    if (!start.startsWith('HTTP/1.1 ')) return;
    if (start !== 'HTTP/1.1 200') throw new Error(`not a 200: ${chunk.toString()}`);
    this.onAnswer();
  }
  // What Node's server asks of a socket; timeouts play no part here.
  setTimeout() {
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
}

/**
 * Sends `count` creates through `server` on {@link CONNECTIONS} connections, one in flight on each.
 * @param {import('node:http').Server} server
 * @param {number} count
 * @returns {Promise<number>} nanoseconds of CPU time per request
 */
function nodeBatch(server, count) {
  const head = `POST /plants HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nAuthorization: Bearer ${bearer}\r\nContent-Length: `;
  const requests = Array.from({ length: count }, () => {
    const json = body();
    return Buffer.from(`${head}${json.length}\r\n\r\n${json}`, 'latin1');
  });
  return new Promise((resolve) => {
    let sent = 0;
    let answered = 0;
    /** @type {MemorySocket[]} */
    const sockets = [];
    const started = process.cpuUsage();
    /** @param {MemorySocket} socket */
    const send = (socket) => socket.push(requests[sent++]);
    for (let i = 0; i < CONNECTIONS; i++) {
      const socket = new MemorySocket(() => {
        if (++answered === count) {
          resolve(cpuNanoseconds(started) / count);
          for (const each of sockets) each.destroy();
        } else if (sent < count) {
          // Not from inside the server's write: the next request arrives as a new read would.
          queueMicrotask(() => send(socket));
        }
      });
      sockets.push(socket);
      server.emit('connection', socket);
      send(socket);
    }
  });
}

/**
 * Calls `handler` with `count` creates, one at a time.
 * @param {Handler} handler
 * @param {number} count
 * @returns {Promise<number>} nanoseconds of CPU time per request
 */
async function fetchBatch(handler, count) {
  const requests = Array.from({ length: count }, () => {
    const json = body();
    return new Request('http://127.0.0.1:8080/plants', {
      method: 'POST',
      headers: { host: '127.0.0.1:8080', 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': String(json.length) },
      body: encoder.encode(json),
    });
  });
  const started = process.cpuUsage();
  for (const request of requests) {
    const response = await handler(request);
    if (response.status !== 200) throw new Error(`not a 200: ${response.status} ${await response.text()}`);
  }
  return cpuNanoseconds(started) / count;
}

/**
 * The CPU time this process has used since `started`, in nanoseconds: its
 * threads share the one core it is pinned to, so this is the time it ran,
 * without the time other work on a busy machine took that core from it,
 * which wall-clock time would count (at a load of 3 to 5 on this 2-core
 * machine, whole rounds came out 30 % slower for one contender and not the
 * other).
 * @param {NodeJS.CpuUsage} started
 */
function cpuNanoseconds(started) {
  const used = process.cpuUsage(started);
  return (used.user + used.system) * 1000;
}

/**
 * Measures one contender in this process: a warm-up, then the fastest of
 * {@link BATCHES} batches, in CPU time. Other work on the machine still adds
 * some (caches it evicts), in bursts longer than a batch: the fastest batch is
 * the one it touched least.
 * @param {string} name
 * @returns {Promise<number>} nanoseconds per request
 */
async function measureInProcess(name) {
  const nodeContender = NODE_CONTENDERS[name];
  const fetchContender = FETCH_CONTENDERS[name];
  /** @type {(count: number) => Promise<number>} */
  let batch;
  if (nodeContender !== undefined) {
    const server = await nodeContender();
    batch = (count) => nodeBatch(server, count);
  } else if (fetchContender !== undefined) {
    const handler = fetchContender();
    batch = (count) => fetchBatch(handler, count);
  } else {
    throw new Error(`no in-process contender ${name}; one of ${[...Object.keys(NODE_CONTENDERS), ...Object.keys(FETCH_CONTENDERS)].join(', ')}`);
  }
  await batch(WARMUP_REQUESTS);
  const batches = [];
  for (let i = 0; i < BATCHES; i++) batches.push(await batch(BATCH_REQUESTS));
  return Math.min(...batches);
}

console.log(JSON.stringify({ nsPerRequest: await measureInProcess(process.argv[2] ?? '') }));
// The servers and the store's timers are not worth closing one by one.
process.exit(0);
