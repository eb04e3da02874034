// Runs in vitest on Node 24: HTTP/2, which the standalone Node server and workerd's front offer by ALPN beside
// HTTP/1.1 over TLS,
// with certificates the test makes with openssl: curl over both protocols on one port, and the clients HTTP/2
// lets do more harm than HTTP/1.1 ones: streams reset as soon as opened (rapid reset, CVE-2023-44487), more
// streams than a connection may have open at once. Each is bounded in time and
// count, on 127.0.0.1, and held to the server's resident memory and to the creates of a well-behaved client
// beside it. (The conformance suite runs over HTTP/2 on every Node line and workerd:
// conformance-http2.test.ts.)
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { connect as connectTls } from 'node:tls';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtime, runtimeVersion, runToExit, spawnServer, temporaryDirectories, type SpawnedServer } from './runtimes.ts';
import { heldConnections } from './support/held-connections.ts';
import { rapidReset } from './support/rapid-reset.ts';
import { processRssMiB, treeRssMiB } from './support/process-memory.ts';
import { createTestAuthority, type TestAuthority } from './support/test-certificates.ts';
import { until } from './support/until.ts';

const directory = temporaryDirectories('plant-store-http2-');
let authority: TestAuthority;
let caPath: string;

beforeAll(() => {
  const dir = directory();
  authority = createTestAuthority(dir);
  caPath = join(dir, 'ca.pem');
});

/** A connection of its own to the server at `origin`, over HTTP/2. */
function session(origin: string): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const opened = connect(origin, { ca: authority.ca }, () => resolve(opened));
    opened.once('error', reject);
  });
}

/** Sends creates one after another over HTTP/2 to `origin` until `stop()`; their statuses. */
function steadyClient(origin: string, firstId: number): { stop(): Promise<number[]> } {
  const statuses: number[] = [];
  let stopped = false;
  const running = (async () => {
    for (let id = firstId; !stopped; id++) {
      const answer = await send(origin, {
        path: '/plants',
        headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
        body: `{"id":${id},"name":"steady"}`,
        ca: authority.ca,
        http2: true,
      }).catch(() => ({ status: 0 }));
      statuses.push(answer.status);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      return statuses;
    },
  };
}

describe.concurrent.each(['Node 22', 'Node 26'])('%s standalone server over TLS, HTTP/1.1 beside HTTP/2', (name) => {
  it('keeps an idle HTTP/1.1 connection 5 s (Keep-Alive: timeout=5), then closes it, as node:http does', async () => {
    // A pair of each line's own: the two run at once, and one writing `localhost.key` again while the other's server
    // read it once stopped that server's start ("holds no PEM private key").
    const pair = authority.leaf(`localhost-${name.toLowerCase().replace(/\s+/g, '-')}`);
    const target = await spawnServer(runtime(name), 'working', { PLANT_STORE_TLS_CERT: pair.certPath, PLANT_STORE_TLS_KEY: pair.keyPath });
    try {
      const url = new URL(target.baseUrl);
      const socket = connectTls({ host: '127.0.0.1', port: Number(url.port), servername: 'localhost', ca: authority.ca, ALPNProtocols: ['http/1.1'] });
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('secureConnect', resolve));
      let received = '';
      socket.setEncoding('utf8').on('data', (part: string) => (received += part));
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await until(() => received.includes('{"status":"ok"}'), 5_000, 'the answer');
      const answeredAt = Date.now();
      expect(received).toMatch(/\r\nKeep-Alive: timeout=5\r\n/i);
      const closedWithin = await Promise.race([closed.then(() => Date.now() - answeredAt), new Promise((resolve) => setTimeout(resolve, 15_000, 'open'))]);
      socket.destroy();
      console.log(JSON.stringify({ name, idleClosedAfterMs: closedWithin }));
      expect(closedWithin).not.toBe('open');
    } finally {
      await target.close();
    }
  }, 30_000);
});

describe('Node 22, as the Node quirk record says (packages/server/src/node/QUIRKS.md)', () => {
  it('node22-http2-no-keep-alive-timeout: a bare node:http2 server with HTTP/1.1 beside it has no keep-alive timeout', async () => {
    const script = "console.log(String(require('node:http2').createSecureServer({ allowHTTP1: true }).keepAliveTimeout))";
    const { code, stdout, stderr } = await runToExit(runtime('Node 22').binary, ['-e', script], { cwd: directory() });
    expect(code, stderr).toBe(0);
    expect(
      stdout.trim(),
      `Node ${runtimeVersion(runtime('Node 22'))} now sets node:http2's keep-alive timeout for HTTP/1.1 (nodejs/node#59783): see the record node22-http2-no-keep-alive-timeout in packages/server/src/node/QUIRKS.md`,
    ).toBe('undefined');
  });
});

// Node 24 and workerd's front (Node's server): Deno's node:http2 holds what hostile clients leave
// (packages/server/src/deno/QUIRKS.md, deno-http2-unbounded-memory), so the Deno server does not offer HTTP/2.
describe.each(['Node 24', 'workerd'] as const)('the standalone %s server over HTTP/2', (name) => {
  let server: SpawnedServer;
  /** The server's https origin by the name its certificate holds (`localhost`). */
  let origin: string;
  let serverPort: number;
  // The server's resident memory: workerd's front with workerd beneath it, the Node server alone.
  const rss = () => (name === 'workerd' ? treeRssMiB : processRssMiB)(server.child.pid!);
  beforeAll(async () => {
    const pair = authority.leaf('localhost');
    // A 2 s write timeout, so that a client that stops reading is cut within seconds.
    server = await spawnServer(runtime(name), 'working', {
      PLANT_STORE_TLS_CERT: pair.certPath,
      PLANT_STORE_TLS_KEY: pair.keyPath,
      PLANT_STORE_WRITE_TIMEOUT_MS: '2000',
    });
    origin = server.baseUrl.replace('127.0.0.1', 'localhost');
    serverPort = Number(new URL(server.baseUrl).port);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers curl over HTTP/2 and over HTTP/1.1 on the same port', () => {
    const curl = (protocol: string) =>
      execFileSync(
        'curl',
        [protocol, '-sS', '--cacert', caPath, '-H', `authorization: Bearer ${CONFORMANCE_TOKEN}`, '-H', 'content-type: application/json'].concat([
          '-d',
          `{"id":${protocol === '--http2' ? 21 : 11},"name":"Ivy"}`,
          '-w',
          ' %{http_version} %{http_code}',
          `${origin}/plants`,
        ]),
        { encoding: 'utf8' },
      );
    expect(curl('--http2')).toBe('{"name":"Ivy"} 2 200');
    expect(curl('--http1.1')).toBe('{"name":"Ivy"} 1.1 200');
  });

  it('answers CONNECT over HTTP/2 as any other method, with the Error body, and goes on serving', async () => {
    const client = await session(origin);
    client.on('error', () => {});
    try {
      const stream = client.request({ ':method': 'CONNECT', ':authority': 'example.com:443' });
      stream.on('error', () => {});
      const status = await new Promise<number>((resolve) => stream.once('response', (headers) => resolve(Number(headers[':status']))));
      expect([404, 405]).toContain(status);
      stream.close();
    } finally {
      client.destroy();
    }
    const after = await send(origin, { method: 'GET', path: '/healthz', ca: authority.ca, http2: true });
    expect(after.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });

  it('stores nothing of a create whose client resets its stream before the body is whole', async () => {
    const client = await session(origin);
    client.on('error', () => {});
    try {
      // A body that parses on its own, of which only part of the declared length comes before the reset: it is not
      // the client's body, and must not be stored (DATA then RST_STREAM, in that order on the one connection).
      const stream = client.request({
        ':method': 'POST',
        ':path': '/plants',
        authorization: `Bearer ${CONFORMANCE_TOKEN}`,
        'content-type': 'application/json',
        'content-length': '100',
      });
      stream.on('error', () => {});
      const closed = once(stream, 'close');
      stream.write('{"id":41,"name":"Partial"}', () => stream.close(constants.NGHTTP2_CANCEL));
      await closed;
    } finally {
      client.destroy();
    }
    // Had the part been stored, this create of the same id with another name would conflict (409).
    const answer = await send(origin, {
      path: '/plants',
      headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":41,"name":"Whole"}',
      ca: authority.ca,
      http2: true,
    });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: '{"name":"Whole"}' });
  });

  it('answers a create with an expectation other than 100-continue as it would without it', async () => {
    const answer = await send(origin, {
      path: '/plants',
      headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json', expect: 'something-else' },
      body: '{"id":31,"name":"Sage"}',
      ca: authority.ca,
      http2: true,
    });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: '{"name":"Sage"}' });
  });

  it('sends away connections that reset their streams as soon as they open them (rapid reset: 10 connections, up to 2,000 each), holding at most 100 MiB more, while a steady client goes on', async () => {
    const before = rss();
    const steady = steadyClient(origin, 1_000_000);
    let peak = before;
    // Ten connections, each opening and cancelling streams in bursts until it has asked for 2,000 or is sent away.
    const attack = await rapidReset(origin, authority.ca, 10, 2_000, () => (peak = Math.max(peak, rss())));
    const { attempted } = attack;
    try {
      // Seen from the kernel's table: node:http2's client does not always notice, writing as it is.
      await until(() => heldConnections(serverPort, attack.ports) === 0, 10_000, 'every attacking connection sent away');
    } finally {
      attack.destroy();
    }
    const statuses = await steady.stop();
    const after = rss();
    console.log(
      JSON.stringify({
        rapidReset: { attempted, beforeMiB: before, peakExtraMiB: peak - before, afterExtraMiB: after - before, steady: statuses.length },
      }),
    );
    expect(Math.max(peak, after) - before).toBeLessThanOrEqual(100);
    // Each create answered: stored, or refused by the overload bounds with their 503 (on 2 busy cores).
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it('sends away a client that opens more than 100 streams at once, ignoring the limit it acknowledged (GOAWAY, PROTOCOL_ERROR), holding at most 100 MiB more', async () => {
    const before = rss();
    // 300 creates whose bodies never come: each stream the server takes stays open, waiting for its body.
    const { goaway, answered } = await openStreamsIgnoringLimit(origin, 300);
    const after = rss();
    console.log(JSON.stringify({ manyStreams: { goaway, answered, extraMiB: after - before } }));
    expect({ goaway, answered }).toEqual({ goaway: constants.NGHTTP2_PROTOCOL_ERROR, answered: 0 });
    expect(after - before).toBeLessThanOrEqual(100);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it('cuts a connection whose streams ask for the docs script and never read it (the 2 s write timeout here), holding at most 100 MiB more', async () => {
    const before = rss();
    const client = await session(origin);
    client.on('error', () => {});
    const ports = new Set([client.socket.localPort!]);
    const started = Date.now();
    try {
      // 100 streams, each asking for the 1.7 MB script and reading none of it: flow control stops the server at
      // the client's windows, and the rest waits in the server.
      for (let i = 0; i < 100; i++) {
        const stream = client.request({ ':method': 'GET', ':path': '/docs/swagger-ui-bundle.js' });
        stream.on('error', () => {});
        stream.pause();
      }
      let peak = before;
      await until(
        () => {
          peak = Math.max(peak, rss());
          return heldConnections(serverPort, ports) === 0;
        },
        20_000,
        'the connection cut',
        100,
      );
      const cutAfterMs = Date.now() - started;
      const after = rss();
      console.log(JSON.stringify({ neverReads: { cutAfterMs, peakExtraMiB: peak - before, afterExtraMiB: after - before } }));
      expect(Math.max(peak, after) - before).toBeLessThanOrEqual(100);
    } finally {
      client.destroy();
    }
    expect(server.child.exitCode).toBeNull();
  }, 90_000);

  it('on SIGTERM tells an HTTP/2 client to open no new stream (GOAWAY, NO_ERROR), answers the stream in flight, and exits 0', async () => {
    const pair = authority.leaf('localhost');
    const stopping = await spawnServer(runtime(name), 'working', { PLANT_STORE_TLS_CERT: pair.certPath, PLANT_STORE_TLS_KEY: pair.keyPath });
    const client = await new Promise<ClientHttp2Session>((resolve, reject) => {
      const opened = connect(stopping.baseUrl.replace('127.0.0.1', 'localhost'), { ca: authority.ca }, () => resolve(opened));
      opened.once('error', reject);
    });
    client.on('error', () => {});
    try {
      const goaway = new Promise<number>((resolve) => client.once('goaway', resolve));
      // A create whose body is still on its way when the signal comes: the server's 100 Continue says it has it.
      const stream = client.request({
        ':method': 'POST',
        ':path': '/plants',
        authorization: `Bearer ${CONFORMANCE_TOKEN}`,
        'content-type': 'application/json',
        expect: '100-continue',
      });
      const inFlight = new Promise((resolve) => stream.once('continue', resolve));
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        let status = 0;
        let body = '';
        stream.on('response', (headers) => (status = Number(headers[':status'])));
        stream.setEncoding('utf8').on('data', (part: string) => (body += part));
        stream.on('end', () => resolve({ status, body }));
        stream.on('error', reject);
      });
      await inFlight;
      stream.write('{"id":77,');
      stopping.child.kill('SIGTERM');
      expect(await goaway).toBe(constants.NGHTTP2_NO_ERROR);
      stream.end('"name":"Fern"}');
      expect(await answer).toEqual({ status: 200, body: '{"name":"Fern"}' });
      const [code] = (await once(stopping.child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      client.destroy();
      await stopping.close();
    }
  }, 30_000);
});

/**
 * A client that ignores the limit on streams open at once of the server at `origin`, which node:http2's own client keeps: over a
 * TLS connection offering only `h2`, it acknowledges the server's settings, then opens `count` streams (a create's
 * headers, no body) in one write; resolves once the server ends the connection, with the error code of the GOAWAY
 * it sent, if any, and how many streams it answered (HEADERS).
 */
async function openStreamsIgnoringLimit(origin: string, count: number): Promise<{ goaway: number | undefined; answered: number }> {
  const url = new URL(origin);
  const socket = connectTls({ host: '127.0.0.1', port: Number(url.port), servername: 'localhost', ca: authority.ca, ALPNProtocols: ['h2'] });
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('secureConnect', resolve));
  const frame = (type: number, flags: number, stream: number, payload: Buffer) => {
    const head = Buffer.alloc(9);
    head.writeUIntBE(payload.length, 0, 3);
    head[3] = type;
    head[4] = flags;
    head.writeUInt32BE(stream, 5);
    return Buffer.concat([head, payload]);
  };
  // HPACK (RFC 7541): :method POST (static 3) and :scheme https (7) indexed, the rest literals without indexing.
  const literal = (index: number, value: string) => Buffer.concat([Buffer.from([index, value.length]), Buffer.from(value)]);
  const literalNew = (name: string, value: string) =>
    Buffer.concat([Buffer.from([0, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value)]);
  const block = Buffer.concat([
    Buffer.from([0x83, 0x87]),
    literal(0x04, '/plants'),
    literal(0x01, 'localhost'),
    literalNew('authorization', `Bearer ${CONFORMANCE_TOKEN}`),
    literalNew('content-type', 'application/json'),
    literalNew('content-length', '100'),
  ]);
  let received = Buffer.alloc(0);
  let goaway: number | undefined;
  let answered = 0;
  let acknowledged = false;
  const ended = new Promise((resolve) => socket.once('close', resolve));
  const settingsReceived = new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      while (received.length >= 9 && received.length >= 9 + received.readUIntBE(0, 3)) {
        const length = received.readUIntBE(0, 3);
        const type = received[3]!;
        const flags = received[4]!;
        const payload = received.subarray(9, 9 + length);
        received = received.subarray(9 + length);
        if (type === 4 && (flags & 1) === 0) {
          socket.write(frame(4, 1, 0, Buffer.alloc(0)));
          resolve();
        }
        if (type === 4 && (flags & 1) === 1) acknowledged = true;
        if (type === 7) goaway = payload.readUInt32BE(4);
        if (type === 1) answered++;
      }
    }),
  );
  socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
  socket.write(frame(4, 0, 0, Buffer.alloc(0)));
  await settingsReceived;
  // The server holds its limit from the moment we acknowledge its settings; it knows ours once it acknowledges them.
  await until(() => acknowledged, 5_000, 'our settings acknowledged');
  socket.write(Buffer.concat(Array.from({ length: count }, (_, i) => frame(1, 0x4, 1 + 2 * i, block))));
  const cut = await Promise.race([ended.then(() => true), new Promise((resolve) => setTimeout(resolve, 15_000, false))]);
  socket.destroy();
  if (cut !== true) throw new Error(`the server held a connection with ${count} streams open for 15 s`);
  return { goaway, answered };
}
