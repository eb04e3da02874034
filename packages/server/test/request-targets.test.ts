// Runs under vitest on Node.
import { staticTokens } from '@plant-store/core';
import { parseResponses, rawExchange } from '@plant-store/testing';
import { createMemoryStore, type MemoryStore } from '@plant-store/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../src/index.ts';

const create = (target: string, id: number) => {
  const body = `{"id":${id},"name":"n${id}"}`;
  return `POST ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
};

describe('request targets on the standalone Node server', () => {
  let running: RunningServer;
  let store: MemoryStore;
  beforeAll(async () => {
    store = createMemoryStore();
    running = await serve({ store, authenticate: staticTokens(['t']), port: 0, accessLog: false });
  });
  afterAll(() => running.close());

  async function statusOf(target: string, id: number): Promise<number | undefined> {
    const result = await rawExchange(running.url, [create(target, id)], 2_000);
    return parseResponses(result.received)[0]?.status;
  }

  it('accepts absolute-form targets (RFC 9112 §3.2.2), whatever the authority', async () => {
    expect(await statusOf('http://x/plants', 1)).toBe(200);
    expect(await statusOf('http://example.com:8080/plants?x=1', 2)).toBe(200);
    expect(await store.get(2n)).toEqual({ name: 'n2' });
    expect(await statusOf('http://x/Plants', 3)).toBe(404);
  });

  it('removes dot segments (%2e and \\ included) and fragments, as Bun and workerd do, so one rule holds everywhere', async () => {
    const targets = ['/./plants', '/a/../plants', '/%2e/plants', '/%2E%2e/plants', '/x/.%2e/plants?q=1', '/a\\..\\plants', '/plants#top'];
    for (const [i, target] of targets.entries()) expect(await statusOf(target, 10 + i), target).toBe(200);
    for (const target of ['/plants/.', '/plants/x/..', '/%70lants', '/.../plants']) expect(await statusOf(target, 20), target).toBe(404);
    expect(await store.get(20n)).toBeUndefined();
  });

  it('answers CONNECT like any other method (405 on a route, 404 elsewhere) with the Error body, then closes', async () => {
    for (const [head, status, code] of [
      ['CONNECT /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n', 405, 1201],
      ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 404, 1200],
    ] as const) {
      const result = await rawExchange(running.url, [head], 2_000);
      const [answer, more] = parseResponses(result.received);
      expect([answer?.status, answer?.headers['connection'], JSON.parse(answer?.body ?? '{}').error, more], head).toEqual([status, 'close', code, undefined]);
      expect(result.closed, head).toBe(true);
    }
  });

  it('refuses an HTTP/1.1 request without Host (RFC 9112 §3.2) with the Error body 400/1005, and stores nothing', async () => {
    const result = await rawExchange(running.url, [create('/plants', 30).replace('Host: x\r\n', '')], 2_000);
    const [answer] = parseResponses(result.received);
    expect([answer?.status, answer?.headers['connection'], JSON.parse(answer?.body ?? '{}').error]).toEqual([400, 'close', 1005]);
    expect(await store.get(30n)).toBeUndefined();
  });
});
