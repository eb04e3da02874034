// Runs under vitest on Node.
import { StoreTimeoutError, staticTokens, type PlantStore } from '@plant-store/core';
import { send } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it } from 'vitest';
import { serve } from '../src/index.ts';

const SECRET = 'db password is hunter2';
const HEADERS = { authorization: 'Bearer t', 'content-type': 'application/json' };

/** A memory store that fails in the given way before it writes anything. */
function failing(mode: 'throws' | 'rejects' | 'hangs') {
  const inner = createMemoryStore();
  const store: PlantStore = {
    insertIfAbsent(id, plant) {
      if (mode === 'throws') throw new Error(SECRET);
      if (mode === 'rejects') return Promise.reject(new Error(SECRET));
      return new Promise(() => {});
    },
    get: (id) => inner.get(id),
  };
  return { store, inner };
}

describe('faults of what the service depends on', () => {
  it.each(['throws', 'rejects', 'hangs'] as const)('a store that %s → 503 (1501), nothing written, details only to onError', async (mode) => {
    const { store, inner } = failing(mode);
    const reported: unknown[] = [];
    const running = await serve({
      store,
      authenticate: staticTokens(['t']),
      port: 0,
      accessLog: false,
      storeTimeoutMs: 200,
      onError: (error) => reported.push(error),
    });
    try {
      const started = Date.now();
      const response = await send(running.url, { path: '/plants', headers: HEADERS, body: '{"id":1,"name":"n"}' });
      expect(response.status).toBe(503);
      const message =
        mode === 'hangs'
          ? 'the plant store did not answer in time and the plant may still be stored; retrying with the same id, name and tag is safe'
          : 'the plant store failed; retrying with the same id, name and tag is safe (200 if the plant was stored)';
      expect(JSON.parse(response.body)).toEqual({ error: 1501, message });
      expect(response.body).not.toContain('hunter2');
      expect(inner.size).toBe(0);
      expect(reported).toHaveLength(1);
      if (mode === 'hangs') {
        expect(reported[0]).toBeInstanceOf(StoreTimeoutError);
        // The 200 ms store timeout answered it, not the test's own 60 s.
        expect(Date.now() - started).toBeLessThan(10_000);
      } else expect(String(reported[0])).toContain(SECRET);
      // The server goes on answering.
      expect((await send(running.url, { method: 'GET', path: '/openapi.json' })).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('a verifier that throws → 500 (1500) without its error', async () => {
    const reported: unknown[] = [];
    const running = await serve({
      store: createMemoryStore(),
      authenticate: () => {
        throw new Error(SECRET);
      },
      port: 0,
      accessLog: false,
      onError: (error) => reported.push(error),
    });
    try {
      const response = await send(running.url, { path: '/plants', headers: HEADERS, body: '{"id":1,"name":"n"}' });
      expect(JSON.parse(response.body)).toEqual({ error: 1500, message: 'internal error' });
      expect(response.status).toBe(500);
      expect(String(reported[0])).toContain(SECRET);
    } finally {
      await running.close();
    }
  });
});
