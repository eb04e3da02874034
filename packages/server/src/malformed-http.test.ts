import { staticTokens } from '@plant-store/core';
import { parseResponses, rawExchange, send } from '@plant-store/testing';
import { createMemoryStore, type MemoryStore } from '@plant-store/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from './serve.ts';

const HEAD = 'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n';

describe('malformed HTTP', () => {
  let running: RunningServer;
  let store: MemoryStore;
  beforeAll(async () => {
    store = createMemoryStore();
    running = await serve({ store, authenticate: staticTokens(['t']), port: 0, accessLog: false, headersTimeoutMs: 1_000, requestTimeoutMs: 1_500 });
  });
  afterAll(() => running.close());

  it('answers a 64 KiB header with 431 (1403)', async () => {
    const result = await rawExchange(running.url, [`${HEAD}X-Padding: ${'a'.repeat(64 << 10)}\r\nContent-Length: 2\r\n\r\n{}`]);
    const answers = parseResponses(result.received);
    expect(answers.map((answer) => answer.status)).toEqual([431]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: 1403 });
    expect(result.closed).toBe(true);
  });

  it('answers Content-Length with Transfer-Encoding with 400 (1005) and closes', async () => {
    const body = '{"id":10,"name":"smuggled"}';
    const result = await rawExchange(running.url, [
      `${HEAD}Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    ]);
    const answers = parseResponses(result.received);
    expect(answers.map((answer) => answer.status)).toEqual([400]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: 1005 });
    expect(await store.get(10n)).toBeUndefined();
  });

  it('never stores a partial or spliced plant when Content-Length is shorter than the body', async () => {
    const body = '{"id":11,"name":"abcdef"}';
    const result = await rawExchange(running.url, [`${HEAD}Content-Length: 10\r\n\r\n${body}`], 3_000);
    const statuses = parseResponses(result.received).map((answer) => answer.status);
    expect(statuses).not.toContain(200);
    expect(statuses[0]).toBe(400);
    expect(await store.get(11n)).toBeUndefined();
  });

  it('never answers 200 when Content-Length is longer than the body: it waits, then times out', async () => {
    const body = '{"id":12,"name":"abcdef"}';
    const result = await rawExchange(running.url, [`${HEAD}Content-Length: ${body.length + 20}\r\n\r\n${body}`], 5_000);
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([408]);
    expect(await store.get(12n)).toBeUndefined();
  });

  it('answers three pipelined creates in order', async () => {
    const requests = ['a', 'b', 'c'].map((name, i) => {
      const body = `{"id":${20 + i},"name":"${name}"}`;
      return `${HEAD}Content-Length: ${body.length}\r\n\r\n${body}`;
    });
    const result = await rawExchange(running.url, [requests.join('')], 1_000);
    const answers = parseResponses(result.received);
    expect(answers.map((answer) => `${answer.status} ${answer.body}`)).toEqual(['200 {"name":"a"}', '200 {"name":"b"}', '200 {"name":"c"}']);
  });

  it('keeps serving after 200 uploads aborted mid-body, and leaks no connection', async () => {
    const body = '{"id":30,"name":"never finished"}';
    await Promise.all(
      Array.from({ length: 200 }, () => rawExchange(running.url, [`${HEAD}Content-Length: ${body.length}\r\n\r\n${body.slice(0, 15)}`, { pauseMs: 50 }], 100)),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const open = await new Promise<number>((resolve) => running.server.getConnections((_error, count) => resolve(count)));
    expect(open).toBe(0);
    expect(await store.get(30n)).toBeUndefined();
    expect(
      (
        await send(running.url, {
          path: '/plants',
          headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
          body: '{"id":31,"name":"fine"}',
        })
      ).status,
    ).toBe(200);
  });

  it('answers two Authorization headers with 401, never 200', async () => {
    const body = '{"id":40,"name":"n"}';
    const result = await rawExchange(
      running.url,
      [
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ],
      1_000,
    );
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([401]);
  });
});
