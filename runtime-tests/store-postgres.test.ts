import { describeStoreContract } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPostgres, type TestDatabase } from './support/start-postgres.mjs';
import { createPostgresStore, type PostgresStore } from '@plant-store/store-postgres';

let database: TestDatabase;
let tables = 0;
beforeAll(async () => {
  // On IPv6 loopback too, for the test of IPv6 hosts.
  database = await startPostgres({ settings: { listen_addresses: '127.0.0.1,::1' } });
}, 120_000);
afterAll(() => database.destroy());

// The contract in this process (Node 24, with vitest's reporting); on Node 22,
// 24 and 26, Bun and Deno it runs in store-contract.test.ts. A table of its own per
// test: the contract expects an empty store each time.
describeStoreContract('store-postgres', {
  create: () => createPostgresStore({ url: database.url, table: `contract_${++tables}` }),
  dispose: (store) => (store as PostgresStore).close(),
  numRuns: 50,
});

describe('createPostgresStore', () => {
  it('keeps ids as exact BIGINT values in the table', async () => {
    const store = await createPostgresStore({ url: database.url, table: 'exact_ids' });
    try {
      await store.insertIfAbsent(9223372036854775807n, { name: 'max' });
      await store.insertIfAbsent(1152921504606846977n, { name: 'b' });
      const postgres = (await import('postgres')).default;
      const sql = postgres(database.url, { onnotice: () => {} });
      const rows = await sql`SELECT id::text AS id, name FROM exact_ids ORDER BY id`;
      await sql.end();
      expect(rows.map((row) => [row['id'], row['name']])).toEqual([
        ['1152921504606846977', '"b"'],
        ['9223372036854775807', '"max"'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('fails at once, rather than never, a create whose stored row another program wrote in a form it cannot read', async () => {
    const store = await createPostgresStore({ url: database.url, table: 'foreign_rows', statementTimeoutMs: 60_000 });
    try {
      const postgres = (await import('postgres')).default;
      const sql = postgres(database.url, { onnotice: () => {} });
      // The documented shape, but a name stored as plain text, not as a JSON string.
      await sql`INSERT INTO foreign_rows (id, name) VALUES (1, 'Fern')`;
      await sql.end();
      const started = performance.now();
      await expect(store.insertIfAbsent(1n, { name: 'Fern' })).rejects.toThrow(SyntaxError);
      // Long before the store's own timer (60 s here): the row is read in the same turn as the statement's answer.
      expect(performance.now() - started).toBeLessThan(30_000);
      // The other creates of a batch are answered as ever.
      expect(await store.insertIfAbsent(2n, { name: 'Moss' })).toEqual({ status: 'inserted' });
    } finally {
      await store.close();
    }
  });

  it('migrates idempotently, also when instances start at once', async () => {
    const stores = await Promise.all(Array.from({ length: 4 }, () => createPostgresStore({ url: database.url, table: 'shared' })));
    expect(await stores[0]!.insertIfAbsent(1n, { name: 'one' })).toEqual({ status: 'inserted' });
    expect(await stores[3]!.get(1n)).toEqual({ name: 'one' });
    await Promise.all(stores.map((store) => store.close()));
  });

  it('connects to an IPv6 address in brackets, alone and after a host that refuses (packages/store-postgres/QUIRKS.md, postgres-ipv6-host-split)', async () => {
    const refusing = await freePort();
    const v6 = `[::1]:${database.port}`;
    for (const hosts of [v6, `[::1]:${refusing},${v6}`]) {
      const store = await createPostgresStore({ url: database.url.replace(`127.0.0.1:${database.port}`, hosts), table: 'ipv6_hosts' });
      try {
        const id = BigInt(hosts.length);
        expect(await store.insertIfAbsent(id, { name: hosts })).toEqual({ status: 'inserted' });
        expect(await store.get(id)).toEqual({ name: hosts });
      } finally {
        await store.close();
      }
    }
  });

  it('refuses a table name that is not a plain identifier', async () => {
    await expect(createPostgresStore({ url: database.url, table: 'plants; drop table x' })).rejects.toThrow(TypeError);
  });
});
