// Runs under vitest on Node.
import { staticTokens } from '@plant-store/core';
import { parseResponses, rawExchange, send } from '@plant-store/testing';
import { createMemoryStore, type MemoryStore } from '@plant-store/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../src/index.ts';

const head = (id: number, { token = 't', expect = '100-continue', length = 0 } = {}) =>
  `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nExpect: ${expect}\r\nContent-Length: ${length || body(id).length}\r\n\r\n`;
const body = (id: number) => `{"id":${id},"name":"n${id}"}`;

describe('Expect on the standalone Node server', () => {
  let running: RunningServer;
  let store: MemoryStore;
  const lines: string[] = [];
  beforeAll(async () => {
    store = createMemoryStore();
    running = await serve({ store, authenticate: staticTokens(['t']), port: 0, accessLog: (line) => lines.push(line) });
  });
  afterAll(() => running.close());

  it('100-continue with a bad token: 401 and never a 100 before it; the body is not awaited', async () => {
    const result = await rawExchange(running.url, [head(1, { token: 'bad' })], 500);
    expect(result.received).not.toContain('100 Continue');
    const answers = parseResponses(result.received);
    expect(answers.map((answer) => answer.status)).toEqual([401]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: 1101 });
    expect(await store.get(1n)).toBeUndefined();
  });

  it('100-continue with no credentials: 401 (1100), no 100', async () => {
    const request = head(2).replace('Authorization: Bearer t\r\n', '');
    const result = await rawExchange(running.url, [request], 500);
    expect(result.received).not.toContain('100 Continue');
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([401]);
  });

  it('100-continue with a good token: 100, then 200 once the body is sent', async () => {
    const result = await rawExchange(running.url, [head(3), { pauseMs: 200 }, body(3)], 1_000);
    expect(parseResponses(result.received).map((answer) => `${answer.status} ${answer.body}`)).toEqual(['100 ', '200 {"name":"n3"}']);
    expect(await store.get(3n)).toEqual({ name: 'n3' });
  });

  it('100-continue with a declared body over the limit: 413 (1400), no 100', async () => {
    const result = await rawExchange(running.url, [head(4, { length: 2 << 20 })], 500);
    expect(result.received).not.toContain('100 Continue');
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([413]);
  });

  it('100-continue through an HTTP client that waits for the 100: 200, and 401 without sending the body', async () => {
    const headers = { authorization: 'Bearer t', 'content-type': 'application/json', expect: '100-continue' };
    expect((await send(running.url, { path: '/plants', headers, body: body(5) })).status).toBe(200);
    expect((await send(running.url, { path: '/plants', headers: { ...headers, authorization: 'Bearer bad' }, body: body(6) })).status).toBe(401);
    expect(await store.get(6n)).toBeUndefined();
  });

  it('ignores any other expectation: the request is answered as without it, with the Error body, not a bare 417', async () => {
    const created = await rawExchange(running.url, [head(7, { expect: 'something' }) + body(7)], 500);
    expect(parseResponses(created.received).map((answer) => `${answer.status} ${answer.body}`)).toEqual(['200 {"name":"n7"}']);
    const refused = await rawExchange(running.url, [head(8, { expect: 'something', token: 'bad' }) + body(8)], 500);
    const answers = parseResponses(refused.received);
    expect(answers.map((answer) => answer.status)).toEqual([401]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: 1101 });
    expect(lines).toContainEqual(expect.stringMatching(/^POST \/plants 200 /));
  });
});
