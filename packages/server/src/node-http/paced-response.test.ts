// Runs under vitest on Node.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { rawExchange } from '@plant-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SLICE_BYTES, TURN_BUDGET_BYTES } from '../common/pace-slice.ts';
import { PacedResponse } from './paced-response.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** What the server saw of each answer: the bytes its socket had been handed when `end()` returned, and how it ended. */
interface Seen {
  readonly handedAtEnd: number;
  readonly outcome: Promise<'finish' | 'close'>;
}

/** A server whose answer to `/n` is n bytes, each byte its index mod 251, given whole to `end()`. */
async function bodiesServer(seen: Seen[] = []): Promise<number> {
  const server = createServer({ ServerResponse: PacedResponse }, (req, res) => {
    const size = Number(req.url!.slice(1));
    const body = new Uint8Array(size);
    for (let i = 0; i < size; i++) body[i] = i % 251;
    res.writeHead(200, { 'content-length': String(size) });
    const before = req.socket.bytesWritten;
    const outcome = new Promise<'finish' | 'close'>((resolve) => {
      res.once('finish', () => resolve('finish'));
      res.once('close', () => resolve(res.writableFinished ? 'finish' : 'close'));
    });
    res.end(body);
    seen.push({ handedAtEnd: req.socket.bytesWritten - before, outcome });
  });
  // As serveNodeHttp has it: a client's half-close does not end the connection under an answer still being written.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Sends `requests` pipelined in one write, then half-closes; resolves with everything the server sent until it closed. */
async function exchange(port: number, requests: string): Promise<Buffer> {
  const { received, closed } = await rawExchange(`http://127.0.0.1:${port}`, [requests, { shutdown: true }], 30_000);
  expect(closed).toBe(true);
  return Buffer.from(received, 'latin1');
}

function expectBody(raw: Buffer, size: number): Buffer {
  const headEnd = raw.indexOf('\r\n\r\n');
  expect(raw.subarray(0, headEnd).toString()).toMatch(new RegExp(`^HTTP/1.1 200 OK[^]*\r\ncontent-length: ${size}(\r\n|$)`, 'i'));
  const body = raw.subarray(headEnd + 4, headEnd + 4 + size);
  expect(body.length).toBe(size);
  for (let i = 0; i < size; i += 997) expect(body[i]).toBe(i % 251);
  expect(body[size - 1]).toBe((size - 1) % 251);
  return raw.subarray(headEnd + 4 + size);
}

describe('PacedResponse', () => {
  it('sends a body larger than a slice whole and in order, and the answers pipelined after it in order', async () => {
    const port = await bodiesServer();
    const sizes = [TURN_BUDGET_BYTES * 3 + 17, 10, SLICE_BYTES + 1, SLICE_BYTES];
    let rest = await exchange(port, sizes.map((size) => `GET /${size} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
    for (const size of sizes) rest = expectBody(rest, size);
    expect(rest.length).toBe(0);
  });

  it('serves many large answers at once, each whole', async () => {
    const port = await bodiesServer();
    const size = 1_700_000;
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange(port, `GET /${size} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)));
    for (const answer of answers) expect(expectBody(answer, size).length).toBe(0);
  });

  it('hands the socket nothing of a large body in end() itself, only a small one whole', async () => {
    const seen: Seen[] = [];
    const port = await bodiesServer(seen);
    await exchange(port, `GET /${SLICE_BYTES * 4} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    await exchange(port, `GET /${SLICE_BYTES} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    // Paced: the head and every slice go out from later turns; not paced: all of it at once.
    expect(seen.map(({ handedAtEnd }) => handedAtEnd)).toEqual([0, expect.any(Number)]);
    expect(seen[1]!.handedAtEnd).toBeGreaterThan(SLICE_BYTES);
  });

  it('answers HEAD with the head alone, as Node does', async () => {
    const port = await bodiesServer();
    const raw = await exchange(port, `HEAD /${SLICE_BYTES * 3} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(raw.toString()).toMatch(new RegExp(`^HTTP/1.1 200 OK[^]*\r\ncontent-length: ${SLICE_BYTES * 3}\r\n[^]*\r\n\r\n$`, 'i'));
  });

  it('drops the rest of a body whose client went away, and goes on serving the others', async () => {
    const seen: Seen[] = [];
    const port = await bodiesServer(seen);
    const size = 64_000_000;
    const gone = connect(port, '127.0.0.1');
    // Never read, then reset once the server has begun the answer: most of the body is still to write.
    gone.pause();
    gone.on('error', () => {});
    gone.write(`GET /${size} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await until(() => seen.length === 1);
    gone.resetAndDestroy();
    expect(await seen[0]!.outcome).toBe('close');
    const answer = await exchange(port, `GET /${SLICE_BYTES * 2} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(expectBody(answer, SLICE_BYTES * 2).length).toBe(0);
    expect(await seen[1]!.outcome).toBe('finish');
  });
});

/** Resolves once `check()` holds, looking again each turn. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
