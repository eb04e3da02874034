// Runs under vitest on Node.
import { Agent } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { conformanceOptions, describeHttpConformance, parseResponses, rawExchange, send } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it } from 'vitest';
import { serve } from './serve.ts';

describeHttpConformance({
  name: 'standalone Node server (serve)',
  unmatched: 'not-found',
  async start(scenario) {
    const running = await serve({ ...conformanceOptions(scenario, createMemoryStore()), onError: () => {}, port: 0, accessLog: false });
    return { baseUrl: running.url, close: running.close };
  },
});

describe('serve', () => {
  it('sets the header and request timeouts it is given, by default 10 s and 30 s', async () => {
    const options = { store: createMemoryStore(), authenticate: staticTokens(['t']), port: 0, accessLog: false as const };
    const defaults = await serve(options);
    expect([defaults.server.headersTimeout, defaults.server.requestTimeout]).toEqual([10_000, 30_000]);
    await defaults.close();
    const custom = await serve({ ...options, headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    expect([custom.server.headersTimeout, custom.server.requestTimeout]).toEqual([1_000, 2_000]);
    await custom.close();
  });

  it('close() ends idle keep-alive connections instead of waiting for them', async () => {
    const running = await serve({ store: createMemoryStore(), authenticate: staticTokens(['t']), port: 0, accessLog: false });
    const agent = new Agent({ keepAlive: true });
    const response = await send(running.url, { method: 'GET', path: '/plants', agent });
    expect(response.headers.connection).toBe('keep-alive');
    const started = Date.now();
    await running.close();
    // Not held until the 5 s keep-alive timeout ends the connection.
    expect(Date.now() - started).toBeLessThan(4_500);
    agent.destroy();
  });

  it('hands each access-log line to the given function', async () => {
    const lines: string[] = [];
    const running = await serve({ store: createMemoryStore(), authenticate: staticTokens(['t']), port: 0, accessLog: (line) => lines.push(line) });
    await send(running.url, { path: '/plants', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"id":1,"name":"n"}' });
    await running.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^POST \/plants 200 \d+\.\dms$/);
  });
});

describe('serve with requestId and logFormat json', () => {
  const start = async (lines: string[]) =>
    serve({
      store: createMemoryStore(),
      authenticate: staticTokens(['t']),
      port: 0,
      requestId: true,
      logFormat: 'json',
      accessLog: (line) => lines.push(line),
    });
  const parse = (line: string) => JSON.parse(line) as Record<string, unknown>;

  it('echoes a sane X-Request-Id, makes one otherwise, and logs the id the client got', async () => {
    const lines: string[] = [];
    const running = await start(lines);
    const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const echoed = await send(running.url, {
      path: '/plants?token=x',
      headers: { ...headers, 'x-request-id': 'trace-42', traceparent },
      body: '{"id":1,"name":"n"}',
    });
    const made = await send(running.url, { path: '/plants', headers: { ...headers, 'x-request-id': 'has space' }, body: '{"id":1,"name":"n"}' });
    const twice = await send(running.url, { method: 'GET', path: '/nowhere', headers: { 'x-request-id': ['a', 'b'] } });
    await running.close();
    expect(echoed.headers['x-request-id']).toBe('trace-42');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(twice.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.map(parse)).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        requestId: 'trace-42',
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        method: 'POST',
        path: '/plants',
        status: 200,
        ms: expect.any(Number),
      },
      {
        time: expect.any(String),
        level: 'info',
        requestId: made.headers['x-request-id'],
        traceId: null,
        method: 'POST',
        path: '/plants',
        status: 200,
        ms: expect.any(Number),
      },
      {
        time: expect.any(String),
        level: 'info',
        requestId: twice.headers['x-request-id'],
        traceId: null,
        method: 'GET',
        path: '/nowhere',
        status: 404,
        ms: expect.any(Number),
      },
    ]);
  });

  it('gives a protocol refusal an id too, and logs it: the request when its head was read, else null', async () => {
    const lines: string[] = [];
    const running = await start(lines);
    const smuggled = await rawExchange(running.url, [
      'POST /plants HTTP/1.1\r\nHost: x\r\nX-Request-Id: smuggle-1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ]);
    const huge = await rawExchange(running.url, [`GET /plants HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(64 << 10)}\r\n\r\n`]);
    const noHost = await rawExchange(running.url, ['GET /healthz HTTP/1.1\r\nX-Request-Id: no-host\r\n\r\n']);
    await running.close();
    const answers = [smuggled, huge, noHost].map((result) => parseResponses(result.received)[0]!);
    expect(answers.map((answer) => answer.status)).toEqual([400, 431, 400]);
    // Node refuses the first before it reads the head, so the id the client sent cannot be known.
    for (const answer of answers.slice(0, 2)) expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answers[2]!.headers['x-request-id']).toBe('no-host');
    expect(lines.map(parse)).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        requestId: answers[0]!.headers['x-request-id'],
        traceId: null,
        method: null,
        path: null,
        status: 400,
        ms: expect.any(Number),
      },
      {
        time: expect.any(String),
        level: 'info',
        requestId: answers[1]!.headers['x-request-id'],
        traceId: null,
        method: null,
        path: null,
        status: 431,
        ms: expect.any(Number),
      },
      { time: expect.any(String), level: 'info', requestId: 'no-host', traceId: null, method: 'GET', path: '/healthz', status: 400, ms: expect.any(Number) },
    ]);
  });
});
