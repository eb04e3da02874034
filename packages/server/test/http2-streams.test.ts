// Runs under vitest on Node: serve() over TLS with HTTP/2, against streams that end late or carry large heads,
// each answered as the same request over HTTP/1.1 would be.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, constants, type ClientHttp2Session, type OutgoingHttpHeaders } from 'node:http2';
import { tmpdir } from 'node:os';
import { connect as tlsConnect } from 'node:tls';
import { join } from 'node:path';
import { staticTokens } from '@plant-store/core';
import { createMemoryStore, type MemoryStore } from '@plant-store/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../src/index.ts';

const REQUEST_TIMEOUT_MS = 1_500;
const TOKEN = 'h2-token';
const CREATE = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const TOO_LARGE = '{"error":1403,"message":"the request headers are too large"}';

interface Answer {
  readonly status: number;
  readonly body: string;
}

describe('serve() over HTTP/2', () => {
  let directory: string;
  let cert: string;
  let running: RunningServer;
  let store: MemoryStore;
  const lines: string[] = [];
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'plant-store-h2-'));
    const [keyPath, certPath] = [join(directory, 'key.pem'), join(directory, 'cert.pem')];
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyPath, '-out', certPath].concat([
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ]),
      { stdio: 'ignore' },
    );
    cert = readFileSync(certPath, 'utf8');
    store = createMemoryStore();
    running = await serve({
      store,
      authenticate: staticTokens([TOKEN]),
      port: 0,
      tls: { cert, key: readFileSync(keyPath, 'utf8') },
      http2: true,
      headersTimeoutMs: REQUEST_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      accessLog: (line) => lines.push(line),
    });
  });
  afterAll(async () => {
    await running?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const origin = () => running.url.replace('127.0.0.1', 'localhost');
  const session = async (): Promise<ClientHttp2Session> => {
    // Sends a head of any size: node:http2's client refuses its own streams past 64 KiB of head by default.
    const client = connect(origin(), { ca: cert, maxSendHeaderBlockLength: 1024 * 1024 });
    client.on('error', () => {});
    await once(client, 'connect');
    return client;
  };
  /** One request over HTTP/2, its body sent whole. */
  const overHttp2 = async (headers: OutgoingHttpHeaders, body = ''): Promise<Answer> => {
    const client = await session();
    try {
      const stream = client.request({ ':method': 'POST', ':path': '/plants', ...headers });
      stream.end(body);
      return await answerOf(stream);
    } finally {
      client.close();
    }
  };
  /** The same request over HTTP/1.1, written as given (no header added), its answer read on a kept connection. */
  const overHttp1 = async (headers: Record<string, string>, body = ''): Promise<Answer> => {
    const { port } = new URL(origin());
    const socket = tlsConnect({ host: '127.0.0.1', port: Number(port), servername: 'localhost', ca: cert, ALPNProtocols: ['http/1.1'] });
    socket.on('error', () => {});
    try {
      await once(socket, 'secureConnect');
      const fields = Object.entries({ host: `localhost:${port}`, ...headers, 'content-length': String(Buffer.byteLength(body)) });
      socket.write(`POST /plants HTTP/1.1\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`);
      let received = '';
      socket.setEncoding('latin1');
      for await (const part of socket) {
        received += part as string;
        const head = received.indexOf('\r\n\r\n');
        const length = /\r\ncontent-length: (\d+)\r\n/i.exec(received.slice(0, head))?.[1];
        if (head >= 0 && length !== undefined && received.length >= head + 4 + Number(length)) {
          return { status: Number(received.slice(9, 12)), body: received.slice(head + 4, head + 4 + Number(length)) };
        }
      }
      throw new Error(`no whole answer over HTTP/1.1: ${JSON.stringify(received)}`);
    } finally {
      socket.destroy();
    }
  };

  it('answers 408 (1402) to a create whose body stops coming before its end, and stores nothing of it', async () => {
    const client = await session();
    try {
      // A part that parses on its own, and no end of the stream: at the request timeout the server answers 408 and
      // closes the stream, which node:http2 ends on the request's side too; that end is not the client's.
      const stream = client.request({ ':method': 'POST', ':path': '/plants', ...CREATE });
      const closed = once(stream, 'close');
      stream.write('{"id":71,"name":"Partial"}');
      expect(await answerOf(stream)).toEqual({ status: 408, body: '{"error":1402,"message":"the request was not received in time"}' });
      await closed;
    } finally {
      client.close();
    }
    expect(await store.get(71n)).toBeUndefined();
    expect(await overHttp2(CREATE, '{"id":71,"name":"Whole"}')).toEqual({ status: 200, body: '{"name":"Whole"}' });
  });

  it('answers 431 (1403) to a head over 16 KiB, as over HTTP/1.1, and stores nothing', async () => {
    for (const [size, id] of [
      [17_000, 72],
      [64_000, 73],
      [65_400, 81],
    ] as const) {
      const headers = { ...CREATE, 'x-padding': 'a'.repeat(size) };
      const body = `{"id":${id},"name":"Padded"}`;
      const [one, two] = [await overHttp1(headers, body), await overHttp2(headers, body)];
      expect({ size, one, two }).toEqual({ size, one: { status: 431, body: TOO_LARGE }, two: { status: 431, body: TOO_LARGE } });
      expect(await store.get(BigInt(id))).toBeUndefined();
    }
    // A field past what HPACK decodes (nghttp2: 64 KiB a field) sends the connection away (GOAWAY,
    // COMPRESSION_ERROR) with no answer; the next connection is served.
    const client = connect(origin(), { ca: cert, maxSendHeaderBlockLength: 1024 * 1024 });
    client.on('error', () => {});
    try {
      const refused = client.request({ ':method': 'POST', ':path': '/plants', ...CREATE, 'x-padding': 'a'.repeat(200_000) });
      refused.on('error', () => {});
      const [code] = (await Promise.all([once(client, 'goaway'), refused.end('{"id":79,"name":"Huge"}')]))[0] as [number];
      expect(code).toBe(constants.NGHTTP2_COMPRESSION_ERROR);
    } finally {
      client.destroy();
    }
    expect(await store.get(79n)).toBeUndefined();
    expect(await overHttp2(CREATE, '{"id":80,"name":"After"}')).toEqual({ status: 200, body: '{"name":"After"}' });
  });

  it('answers as HTTP/1.1 does at the edges of its head limits: the size, and 1,000 fields', async () => {
    // The target, every name and value, and Host: 16,383 bytes are taken, 16,384 refused.
    const room = 16_383 - '/plants'.length - 'host'.length - `localhost:${new URL(origin()).port}`.length;
    for (const [extra, id] of [
      [0, 74],
      [1, 75],
    ] as const) {
      const body = `{"id":${id},"name":"Edge"}`;
      const fixed = { ...CREATE, 'content-length': String(body.length) };
      const used = Object.entries(fixed).reduce((sum, [name, value]) => sum + name.length + value.length, 'x-padding'.length);
      const headers = { ...fixed, 'x-padding': 'a'.repeat(room - used + extra) };
      const [one, two] = [await overHttp1(headers, body), await overHttp2(headers, body)];
      expect({ extra, two }).toEqual({ extra, two: one });
      expect({ extra, status: one.status }).toEqual({ extra, status: extra === 0 ? 200 : 431 });
    }
    // Host, the create's own fields and Content-Length are 4 of them.
    for (const [count, id] of [
      [996, 76],
      [997, 77],
    ] as const) {
      const body = `{"id":${id},"name":"Fields"}`;
      const headers: Record<string, string> = { ...CREATE, 'content-length': String(body.length) };
      for (let i = 0; i < count; i++) headers[`x-f${i}`] = 'v';
      const [one, two] = [await overHttp1(headers, body), await overHttp2(headers, body)];
      expect({ count, two }).toEqual({ count, two: one });
      expect({ count, status: one.status }).toEqual({ count, status: count === 996 ? 200 : 431 });
    }
  });

  it('writes no access-log line for a stream whose client went away before its answer, as over HTTP/1.1', async () => {
    const client = await session();
    const before = lines.length;
    // Asked for its body (100 Continue) once the server reads it, then gone with its stream open: the server's
    // stream closes unanswered.
    const stream = client.request({ ':method': 'POST', ':path': '/plants', ...CREATE, 'content-length': '100', expect: '100-continue' });
    stream.on('error', () => {});
    await once(stream, 'continue');
    stream.write('{"id":');
    await new Promise<void>((resolve) => stream.write('', () => resolve()));
    client.destroy();
    // A later request's line comes after whatever the gone one leaves.
    expect((await overHttp2(CREATE, '{"id":78,"name":"After"}')).status).toBe(200);
    const written = lines.slice(before);
    expect(written.filter((line) => line.startsWith('POST /plants 200 '))).toHaveLength(1);
    expect(written).toHaveLength(1);
  });
});

/** The status and body of a stream's answer. */
async function answerOf(stream: ReturnType<ClientHttp2Session['request']>): Promise<Answer> {
  stream.setEncoding('utf8');
  let body = '';
  stream.on('data', (part: string) => (body += part));
  const [headers] = (await once(stream, 'response')) as [Record<string, string | number>];
  await once(stream, 'end');
  return { status: Number(headers[':status']), body };
}
