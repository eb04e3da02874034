// Runs under vitest on Node.
import { staticTokens, type PlantStore } from '@plant-store/core';
import { parseResponses, rawExchange, startKeepAliveLoad } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it } from 'vitest';
import { serve } from '../src/index.ts';

const HEADERS = { authorization: 'Bearer t', 'content-type': 'application/json' };

describe('shutdown under load', () => {
  it('with 32 keep-alive clients creating: every accepted request is answered, every 200 is stored, close() ends', async () => {
    const inner = createMemoryStore();
    const seen = new Set<bigint>();
    // Records every id the server got as far as storing: those requests were accepted.
    const store: PlantStore = {
      insertIfAbsent: (id, plant) => {
        seen.add(id);
        return inner.insertIfAbsent(id, plant);
      },
      get: (id) => inner.get(id),
    };
    const running = await serve({ store, authenticate: staticTokens(['t']), port: 0, accessLog: false });
    const load = startKeepAliveLoad({ baseUrl: running.url, clients: 32, headers: HEADERS, body: (id) => `{"id":${id},"name":"load"}` });
    await new Promise((resolve) => setTimeout(resolve, 500));
    load.winding();
    const closed = running.close();
    const outcomes = await load.finished;
    await closed;

    const answered = outcomes.filter((outcome) => outcome.status !== undefined);
    const failed = outcomes.filter((outcome) => outcome.error !== undefined);
    console.log(
      `${outcomes.length} requests: ${answered.filter((o) => o.status === 200).length} × 200, ${answered.filter((o) => o.status === 503).length} × 503, errors ${JSON.stringify(Object.fromEntries(failed.reduce((m, o) => m.set(o.error!, (m.get(o.error!) ?? 0) + 1), new Map<string, number>())))}`,
    );
    expect(answered.length).toBeGreaterThan(100);
    // A request the client saw fail never reached the store: it was not accepted.
    for (const outcome of failed) expect(seen.has(BigInt(outcome.id)), `id ${outcome.id}: ${outcome.error}`).toBe(false);
    for (const outcome of failed) expect(outcome.error).toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
    for (const outcome of answered) {
      if (outcome.status === 200) expect(await inner.get(BigInt(outcome.id))).toEqual({ name: 'load' });
      else expect([outcome.status, outcome.connection]).toEqual([503, 'close']);
    }
  });

  it('answers a request that arrives on a kept-alive connection after close began with 503 and Connection: close', async () => {
    const running = await serve({ store: createMemoryStore(), authenticate: staticTokens(['t']), port: 0, accessLog: false });
    const request = (id: number) => {
      const body = `{"id":${id},"name":"n"}`;
      return `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    };
    // One kept-alive connection: a create, then close() begins, then a second create on it.
    const exchange = rawExchange(running.url, [request(1), { pauseMs: 200 }, request(2)], 3_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = running.close();
    const result = await exchange;
    await closed;
    const answers = parseResponses(result.received);
    expect(answers.map((answer) => `${answer.status} ${answer.headers['connection']}`)).toEqual(['200 keep-alive', '503 close']);
    expect(JSON.parse(answers[1]!.body)).toMatchObject({ error: 1501 });
    expect(result.closed).toBe(true);
  });
});
