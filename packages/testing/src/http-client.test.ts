// Runs in vitest on Node: send() over HTTP/2 against a bare node:http2 server (cleartext, prior knowledge) on port 0.
import { once } from 'node:events';
import { createServer, type Http2Server, type ServerHttp2Session, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { send } from './http-client.ts';

let server: Http2Server | undefined;
const sessions = new Set<ServerHttp2Session>();
afterEach(async () => {
  // A connection the client left open would keep close() waiting: ended first.
  for (const session of sessions) session.destroy();
  sessions.clear();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/**
 * A server that answers each request 413 at once, then reads and drops its body and ends the answer 100 ms later, as
 * adapter-node's `endAfterBody` does; `streams` gets the stream of each request it answered.
 */
async function refusingServer(streams: ServerHttp2Stream[]): Promise<string> {
  server = createServer((req, res) => {
    streams.push(req.stream);
    res.writeHead(413, { 'content-type': 'application/json' });
    res.write('{"error":1400,"message":"too large"}');
    req.resume();
    setTimeout(() => res.end(), 100);
  });
  server.on('session', (session) => sessions.add(session));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('send over HTTP/2', () => {
  it('answered before its body is sent whole, stops sending and ends its connection rather than leave the stream open', async () => {
    const streams: ServerHttp2Stream[] = [];
    const baseUrl = await refusingServer(streams);
    // 4 MiB in 16 KiB chunks: far past the 64 KiB the server's flow-control window takes unread.
    const body = Array.from({ length: 256 }, () => new Uint8Array(16 * 1024));
    const response = await send(baseUrl, { path: '/plants', headers: { 'content-type': 'application/json' }, body, http2: true });
    expect(response).toMatchObject({ status: 413, body: '{"error":1400,"message":"too large"}' });
    const [stream] = streams;
    // Left open, the stream would hold its connection until the server timed it out (this server never does).
    if (!stream!.closed) await once(stream!, 'close', { signal: AbortSignal.timeout(5_000) });
    expect(streams).toHaveLength(1);
  });
});
