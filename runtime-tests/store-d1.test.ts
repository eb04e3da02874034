import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { staticTokens } from '@plant-store/core';
import { createD1Store, type D1Database, type D1PreparedStatement } from '@plant-store/store-d1';
import { describeStoreContract, send } from '@plant-store/testing';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnListening } from './runtimes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const temporary = mkdtempSync(join(tmpdir(), 'plant-store-d1-'));
const running: Miniflare[] = [];
afterAll(async () => {
  await Promise.all(running.map((miniflare) => miniflare.dispose()));
  rmSync(temporary, { recursive: true, force: true });
});

/** A real D1 binding, backed by workerd's SQLite, kept in `dir`. */
async function startD1(dir: string): Promise<{ db: D1Database; miniflare: Miniflare }> {
  const miniflare = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response(); } }', d1Databases: ['DB'], d1Persist: dir });
  running.push(miniflare);
  return { db: (await miniflare.getD1Database('DB')) as unknown as D1Database, miniflare };
}

async function stop(miniflare: Miniflare): Promise<void> {
  running.splice(running.indexOf(miniflare), 1);
  await miniflare.dispose();
}

let db: D1Database;
let tables = 0;
beforeAll(async () => {
  ({ db } = await startD1(join(temporary, 'shared')));
});

// A table of its own per test: the contract expects an empty store each time.
describeStoreContract('store-d1', { create: () => createD1Store(db, { table: `contract_${++tables}` }), numRuns: 30 });

/** A D1 binding whose every statement fails, counting the statements it was asked to prepare. */
function failingD1(message: string): D1Database & { readonly prepared: string[] } {
  const prepared: string[] = [];
  const statement: D1PreparedStatement = {
    bind: () => statement,
    first: () => Promise.reject(new Error(message)),
    run: () => Promise.reject(new Error(message)),
    all: () => Promise.reject(new Error(message)),
  };
  return {
    prepared,
    prepare: (query) => (prepared.push(query), statement),
    batch: () => Promise.reject(new Error(message)),
  };
}

describe('createD1Store', () => {
  it('keeps ids exact at both int64 extremes and past 2^53, in the table as integers', async () => {
    const store = createD1Store(db, { table: 'exact_ids' });
    const ids = [-(2n ** 63n), 2n ** 63n - 1n, 9007199254740993n, 9007199254740992n, -9007199254740993n, 0n];
    for (const [i, id] of ids.entries()) expect(await store.insertIfAbsent(id, { name: `plant ${i}` })).toEqual({ status: 'inserted' });
    for (const [i, id] of ids.entries()) {
      expect(await store.get(id)).toEqual({ name: `plant ${i}` });
      expect(await store.insertIfAbsent(id, { name: 'other' })).toEqual({ status: 'exists', existing: { name: `plant ${i}` } });
    }
    expect(await store.get(2n ** 63n - 2n)).toBeUndefined();
    expect(await store.get(-(2n ** 63n) + 1n)).toBeUndefined();
    const { results } = await db
      .prepare('SELECT CAST(id AS TEXT) AS id, typeof(id) AS type, name FROM exact_ids ORDER BY exact_ids.id')
      .all<{ id: string; type: string; name: string }>();
    expect(results).toEqual(
      [...ids]
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .map((id) => ({ id: String(id), type: 'integer', name: JSON.stringify(`plant ${ids.indexOf(id)}`) })),
    );
  });

  it('keeps U+0000, lone surrogates and empty strings exactly, and tag only when given', async () => {
    const store = createD1Store(db, { table: 'strings' });
    const odd = { name: 'a\u0000b\ud800c\udfff 🌵 \u2028', tag: '\udc00' };
    await store.insertIfAbsent(1n, odd);
    await store.insertIfAbsent(2n, { name: '' });
    await store.insertIfAbsent(3n, { name: 'x', tag: '' });
    expect(await store.get(1n)).toStrictEqual(odd);
    expect(await store.get(2n)).toStrictEqual({ name: '' });
    expect(await store.get(3n)).toStrictEqual({ name: 'x', tag: '' });
    expect(await store.insertIfAbsent(1n, odd)).toStrictEqual({ status: 'exists', existing: odd });
  });

  it('creates its table once, on first use, not at construction', async () => {
    const queries: string[] = [];
    const counting: D1Database = { prepare: (query) => (queries.push(query), db.prepare(query)), batch: (statements) => db.batch(statements) };
    const store = createD1Store(counting, { table: 'lazy' });
    expect(queries).toEqual([]);
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.insertIfAbsent(BigInt(i), { name: 'n' })));
    await store.get(1n);
    await store.migrate();
    expect(queries.filter((query) => query.startsWith('CREATE TABLE'))).toHaveLength(1);
  });

  it('shares one table between stores over one database, as isolates do', async () => {
    const [a, b] = [createD1Store(db, { table: 'shared' }), createD1Store(db, { table: 'shared' })];
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? a : b).insertIfAbsent(5n, { name: `racer ${i}` })));
    expect(results.filter((result) => result.status === 'inserted')).toHaveLength(1);
    expect(await b.get(5n)).toEqual(await a.get(5n));
  });

  it('rejects when D1 fails, so the client gets 503 (1501), and tries to create the table again on the next call', async () => {
    const failing = failingD1('D1_ERROR: Network connection lost.');
    const store = createD1Store(failing);
    await expect(store.insertIfAbsent(1n, { name: 'n' })).rejects.toThrow('Network connection lost');
    await expect(store.get(1n)).rejects.toThrow('Network connection lost');
    expect(failing.prepared.filter((query) => query.startsWith('CREATE TABLE'))).toHaveLength(2);
    const handler = createFetchHandler({ store, authenticate: staticTokens(['t0ken']), onError: () => {} });
    const response = await handler(
      new Request('http://x/plants', {
        method: 'POST',
        headers: { authorization: 'Bearer t0ken', 'content-type': 'application/json' },
        body: '{"id":1,"name":"n"}',
      }),
    );
    expect([response.status, await response.json()]).toEqual([503, { error: 1501, message: expect.any(String) }]);
  });

  it('answers full (507) when the database is full', async () => {
    const full = failingD1('D1_ERROR: database or disk is full: SQLITE_FULL');
    let created = false;
    const store = createD1Store({
      prepare: (query) => (query.startsWith('CREATE TABLE') ? ((created = true), db.prepare('SELECT 1')) : full.prepare(query)),
      batch: full.batch,
    });
    expect(await store.insertIfAbsent(1n, { name: 'n' })).toEqual({ status: 'full' });
    expect(created).toBe(true);
  });

  it('refuses what is not a D1 binding, and a table name that is not a plain identifier', () => {
    expect(() => createD1Store(undefined as unknown as D1Database)).toThrow(/expected a D1 database binding/);
    for (const table of ['plants; drop table x', 'Plants', '_cf_kv', 'sqlite_master', '']) expect(() => createD1Store(db, { table }), table).toThrow(TypeError);
  });

  it('keeps plants when workerd stops and starts again on the same directory', async () => {
    const dir = join(temporary, 'persisted');
    const first = await startD1(dir);
    const before = createD1Store(first.db);
    await before.insertIfAbsent(2n ** 63n - 1n, { name: 'max', tag: '\ud800' });
    await before.insertIfAbsent(-(2n ** 63n), { name: 'min' });
    await stop(first.miniflare);
    const second = await startD1(dir);
    const after = createD1Store(second.db);
    expect(await after.get(2n ** 63n - 1n)).toStrictEqual({ name: 'max', tag: '\ud800' });
    expect(await after.get(-(2n ** 63n))).toStrictEqual({ name: 'min' });
    expect(await after.insertIfAbsent(-(2n ** 63n), { name: 'other' })).toEqual({ status: 'exists', existing: { name: 'min' } });
    await stop(second.miniflare);
  });
});

describe('the standalone workerd server keeps plants in D1', () => {
  const TOKEN = 'd1-token';
  const launcher = join(root, 'packages/server/dist/standalone/workerd.js');
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const start = (env: Record<string, string>) =>
    spawnListening('workerd (D1)', process.execPath, [launcher], { PLANT_STORE_TOKENS: TOKEN, PLANT_STORE_ACCESS_LOG: 'off', ...env });

  it('across a restart on the same PLANT_STORE_D1_DIR: replays answer 200 with the same body, other content 409', async () => {
    const dir = join(temporary, 'workerd');
    const plants = [
      { id: '9223372036854775807', body: '{"id":9223372036854775807,"name":"max","tag":"\\ud800"}', answer: '{"name":"max","tag":"\\ud800"}' },
      { id: '-9223372036854775808', body: '{"id":-9223372036854775808,"name":"min"}', answer: '{"name":"min"}' },
      { id: '9007199254740993', body: '{"id":9007199254740993,"name":"a\\u0000b","tag":""}', answer: '{"name":"a\\u0000b","tag":""}' },
    ];
    const first = await start({ PLANT_STORE_D1_DIR: dir });
    try {
      expect(first.output()).toContain(`(store: d1 at ${dir})`);
      expect(existsSync(dir)).toBe(true);
      for (const plant of plants) {
        const created = await send(first.baseUrl, { path: '/plants', headers, body: plant.body });
        expect([created.status, created.body]).toEqual([200, plant.answer]);
      }
    } finally {
      await first.close();
    }
    expect(await first.exited).toBe(0);

    const second = await start({ PLANT_STORE_D1_DIR: dir });
    try {
      for (const plant of plants) {
        const replayed = await send(second.baseUrl, { path: '/plants', headers, body: plant.body });
        expect([replayed.status, replayed.body]).toEqual([200, plant.answer]);
        const other = await send(second.baseUrl, { path: '/plants', headers, body: `{"id":${plant.id},"name":"other"}` });
        expect([other.status, JSON.parse(other.body).error]).toEqual([409, 1300]);
      }
      // 2^53 + 1 and 2^53 stay two ids.
      const neighbour = await send(second.baseUrl, { path: '/plants', headers, body: '{"id":9007199254740992,"name":"b"}' });
      expect(neighbour.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses a second server on a directory in use, since two would lock each other out', async () => {
    const dir = join(temporary, 'claimed');
    const first = await start({ PLANT_STORE_D1_DIR: dir });
    try {
      await expect(start({ PLANT_STORE_D1_DIR: dir })).rejects.toThrow(/exited with 1[\s\S]*is in use by another plant-store server \(pid \d+\)/);
      expect((await send(first.baseUrl, { path: '/plants', headers, body: '{"id":1,"name":"n"}' })).status).toBe(200);
    } finally {
      await first.close();
    }
    // Released at exit: the next server starts.
    const next = await start({ PLANT_STORE_D1_DIR: dir });
    await next.close();
  });

  it('keeps them in memory with PLANT_STORE_DATABASE_URL=memory:, saying so', async () => {
    const server = await start({ PLANT_STORE_D1_DIR: join(temporary, 'unused'), PLANT_STORE_DATABASE_URL: 'memory:' });
    try {
      expect(server.output()).toContain('(store: memory)');
      await expect.poll(() => server.output()).toContain('plants are kept in memory');
      expect((await send(server.baseUrl, { path: '/plants', headers, body: '{"id":1,"name":"n"}' })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses to start when PLANT_STORE_DATABASE_URL asks for a store workerd does not have', async () => {
    await expect(start({ PLANT_STORE_DATABASE_URL: 'postgres://u:secret@db/plants' })).rejects.toThrow(
      /exited with 1[\s\S]*plant-store: PLANT_STORE_DATABASE_URL: workerd keeps plants in D1/,
    );
  });
});
