import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponses, rawExchange } from './raw-exchange.ts';

describe('rawExchange', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Keeps connections alive for a minute: only the client can end an exchange early.
    server = createServer((req, res) => {
      if (req.url === '/continue') res.writeContinue();
      res.setHeader('content-type', 'text/plain');
      res.end(`answer to ${req.url}`);
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('stops after the answers it was told to wait for, on a connection the server keeps open', async () => {
    const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const result = await rawExchange(url, [get('/a') + get('/continue') + get('/b')], 30_000, { answers: 3 });
    expect(result.closed).toBe(false);
    // Ended by the third answer, not by the 30 s bound (the 100 Continue is not an answer).
    expect(result.elapsedMs).toBeLessThan(20_000);
    expect(parseResponses(result.received.replace('HTTP/1.1 100 Continue\r\n\r\n', '')).map((answer) => answer.body)).toEqual([
      'answer to /a',
      'answer to /continue',
      'answer to /b',
    ]);
  });

  it('waits for the server, or the time, without the option', async () => {
    const result = await rawExchange(url, ['GET /a HTTP/1.1\r\nHost: x\r\n\r\n'], 300);
    expect(result.closed).toBe(false);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(250);
    expect(parseResponses(result.received)).toHaveLength(1);
  });
});
