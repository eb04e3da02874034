// Runs under vitest on Node.
import { staticTokens, type PlantStore } from '@plant-store/core';
import { parseResponses, rawExchange, send } from '@plant-store/testing';
import { createMemoryStore, type MemoryStore } from '@plant-store/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../src/index.ts';

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
    const result = await rawExchange(running.url, [requests.join('')], 10_000, { answers: 3 });
    const answers = parseResponses(result.received);
    expect(answers.map((answer) => `${answer.status} ${answer.body}`)).toEqual(['200 {"name":"a"}', '200 {"name":"b"}', '200 {"name":"c"}']);
  });

  it('answers two pipelined creates 200, in order, before refusing garbage sent in the same write (400, 1005) and closing', async () => {
    const creates = [50, 51].map((id) => {
      const body = `{"id":${id},"name":"p${id}"}`;
      return `${HEAD}Content-Length: ${body.length}\r\n\r\n${body}`;
    });
    const result = await rawExchange(running.url, [`${creates.join('')}GARBAGE / HTTP/1.1\r\n\r\n`], 3_000);
    const answers = parseResponses(result.received);
    expect(answers.map((answer) => `${answer.status} ${answer.body}`)).toEqual(['200 {"name":"p50"}', '200 {"name":"p51"}', expect.stringMatching(/^400 /)]);
    expect(JSON.parse(answers[2]!.body)).toMatchObject({ error: 1005 });
    expect(answers[2]!.headers['connection']).toBe('close');
    expect(result.closed).toBe(true);
    expect(await store.get(50n)).toEqual({ name: 'p50' });
    expect(await store.get(51n)).toEqual({ name: 'p51' });
  });

  it('keeps serving after 200 uploads aborted mid-body, and leaks no connection', async () => {
    const body = '{"id":30,"name":"never finished"}';
    await Promise.all(
      Array.from({ length: 200 }, () => rawExchange(running.url, [`${HEAD}Content-Length: ${body.length}\r\n\r\n${body.slice(0, 15)}`, { pauseMs: 50 }], 100)),
    );
    // The server sees each client's close a moment after the client made it: wait for that, boundedly.
    const connections = () => new Promise<number>((resolve) => running.server.getConnections((_error, count) => resolve(count)));
    let open = await connections();
    for (let waited = 0; open > 0 && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      open = await connections();
    }
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
      10_000,
      { answers: 1 },
    );
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([401]);
  });
});

describe('malformed HTTP behind creates still in flight', () => {
  // A store that answers 100 ms late, so the creates are still unanswered when the garbage is read.
  const slowStore = (store: MemoryStore): PlantStore => ({
    insertIfAbsent: (id, plant) => new Promise((resolve) => setTimeout(() => resolve(store.insertIfAbsent(id, plant)), 100)),
    get: (id) => store.get(id),
  });
  let running: RunningServer;
  let store: MemoryStore;
  const lines: string[] = [];
  beforeAll(async () => {
    store = createMemoryStore();
    running = await serve({
      store: slowStore(store),
      authenticate: staticTokens(['t']),
      port: 0,
      accessLog: (line) => lines.push(line),
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 1_500,
    });
  });
  afterAll(() => running.close());

  const create = (id: number) => {
    const body = `{"id":${id},"name":"p${id}"}`;
    return `${HEAD}Content-Length: ${body.length}\r\n\r\n${body}`;
  };

  it('answers every stored create 200, in order, before the refusal, whatever follows them', async () => {
    const tails = ['GARBAGE\r\n\r\n', `${HEAD}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n`, `${HEAD}Transfer-Encoding: chunked\r\n\r\nzz\r\n`];
    for (const [i, tail] of tails.entries()) {
      const ids = [100 + 10 * i, 101 + 10 * i, 102 + 10 * i];
      const result = await rawExchange(running.url, [ids.map(create).join('') + tail], 3_000);
      const answers = parseResponses(result.received);
      expect(
        answers.map((answer) => answer.status),
        tail,
      ).toEqual([200, 200, 200, 400]);
      expect(answers.slice(0, 3).map((answer) => answer.body)).toEqual(ids.map((id) => `{"name":"p${id}"}`));
      expect(JSON.parse(answers[3]!.body)).toMatchObject({ error: 1005 });
      expect(result.closed).toBe(true);
      for (const id of ids) expect(await store.get(BigInt(id))).toEqual({ name: `p${id}` });
    }
  });

  it('answers a create in flight before the 408 of a request that stops half-way', async () => {
    const result = await rawExchange(running.url, [`${create(130)}${HEAD}Content-Length: 20\r\n\r\n{"id":`], 5_000);
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([200, 408]);
    expect(result.closed).toBe(true);
  });

  it('writes an access-log line for each refusal: the request when its head was read, else "- -"', async () => {
    lines.length = 0;
    await rawExchange(running.url, ['GARBAGE\r\n\r\n'], 2_000);
    await rawExchange(running.url, [`${HEAD}X-Padding: ${'a'.repeat(64 << 10)}\r\n\r\n`], 2_000);
    await rawExchange(running.url, ['POST /plants?token=secret HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Length: 20\r\n\r\n{'], 5_000);
    await rawExchange(running.url, ['POST /pla'], 5_000);
    // A line is written when the server sees the close, which may come after the client saw it.
    for (let waited = 0; lines.length < 4 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toEqual([
      expect.stringMatching(/^- - 400 \d+\.\dms$/),
      expect.stringMatching(/^- - 431 \d+\.\dms$/),
      expect.stringMatching(/^POST \/plants 408 \d+\.\dms$/),
      expect.stringMatching(/^- - 408 \d+\.\dms$/),
    ]);
  });
});
