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

describe('createPostgresStore: a table of that name the store cannot use, made by another program', () => {
  /** Runs `statements` on the test database with a connection of the test's own. */
  async function run(statements: string): Promise<void> {
    const postgres = (await import('postgres')).default;
    const sql = postgres(database.url, { onnotice: () => {} });
    try {
      await sql.unsafe(statements);
    } finally {
      await sql.end();
    }
  }

  const KEYLESS = "its id column has no primary key or unique index of its own (immediate, without WHERE), which the store's INSERT … ON CONFLICT (id) needs";
  // Each fails every create, or some, while the database answers: the table `t` is made as written.
  const UNFIT: Record<string, readonly [create: string, reason: string]> = {
    'an integer id': [
      'CREATE TABLE t (id integer PRIMARY KEY, name text NOT NULL, tag text)',
      'its id column is integer, which does not hold every int64 id exactly; the store needs bigint',
    ],
    'a numeric id with decimals': [
      'CREATE TABLE t (id numeric(20,2) PRIMARY KEY, name text NOT NULL, tag text)',
      'its id column is numeric(20,2), which does not hold every int64 id exactly; the store needs bigint',
    ],
    'an id without a key': ['CREATE TABLE t (id bigint NOT NULL, name text NOT NULL, tag text)', KEYLESS],
    'an id keyed with the name': ['CREATE TABLE t (id bigint, name text, tag text, PRIMARY KEY (id, name))', KEYLESS],
    'a deferrable key': ['CREATE TABLE t (id bigint PRIMARY KEY DEFERRABLE, name text NOT NULL, tag text)', KEYLESS],
    'an id GENERATED ALWAYS': [
      'CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL, tag text)',
      'its id column is GENERATED ALWAYS AS IDENTITY, which refuses the ids the store writes',
    ],
    'no tag column': ['CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL)', 'it has no tag column'],
    'a name of limited length': [
      'CREATE TABLE t (id bigint PRIMARY KEY, name varchar(100) NOT NULL, tag text)',
      'its name column is character varying(100), which does not hold every name; the store needs text, with no length limit',
    ],
    'a NOT NULL tag': [
      "CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, tag text NOT NULL DEFAULT '')",
      'its tag column is NOT NULL, and a plant without a tag has a NULL tag',
    ],
    'a NOT NULL column the store does not write': [
      'CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, tag text, owner text NOT NULL)',
      'its column owner is NOT NULL with no default, and the store writes only id, name and tag',
    ],
    'a column the store does not write of a NOT NULL domain without a default': [
      'CREATE DOMAIN $t_d AS int NOT NULL; CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, tag text, x $t_d)',
      'its column x is NOT NULL with no default, and the store writes only id, name and tag',
    ],
    // Not tables at all: no create can be written to them.
    'a sequence in its place': ['CREATE SEQUENCE $t', 'it is a sequence, not a table'],
    'an index in its place': ['CREATE TABLE $t_other (x int); CREATE INDEX $t ON $t_other (x)', 'it is an index, not a table'],
    'a materialized view in its place': [
      'CREATE TABLE $t_base (id bigint PRIMARY KEY, name text NOT NULL, tag text); CREATE MATERIALIZED VIEW $t AS SELECT * FROM $t_base',
      'it is a materialized view, not a table',
    ],
  };
  let made = 0;
  for (const [what, [create, reason]] of Object.entries(UNFIT)) {
    it(`refuses at start, in one line naming the table and why: ${what}`, async () => {
      const table = `unfit_${++made}`;
      await run(create.replaceAll('$t', table).replace('TABLE t (', `TABLE ${table} (`));
      const start = createPostgresStore({ url: database.url, table });
      // A start that succeeds (the code before this check) is closed, and fails the test below.
      void start.then((store) => store.close()).catch(() => {});
      await expect(start).rejects.toThrow(
        new Error(`the database has a table public.${table} the store cannot use (${reason}); rename it, or give the store another table`),
      );
    });
  }

  it('reads the table its statements use, through the search_path: one in another schema is the one refused', async () => {
    await run(`CREATE SCHEMA elsewhere;
      CREATE TABLE elsewhere.shadowed (id integer PRIMARY KEY, name text NOT NULL, tag text);
      CREATE TABLE public.shadowed (id bigint PRIMARY KEY, name text NOT NULL, tag text)`);
    const store = await createPostgresStore({ url: database.url, table: 'shadowed' });
    try {
      expect(await store.insertIfAbsent(9223372036854775807n, { name: 'public' })).toEqual({ status: 'inserted' });
    } finally {
      await store.close();
    }
    await expect(createPostgresStore({ url: `${database.url}?search_path=elsewhere`, table: 'shadowed' })).rejects.toThrow(
      'the database has a table elsewhere.shadowed the store cannot use (its id column is integer,',
    );
  });

  it('uses its own table, and one with an extra nullable column, a column with a default, unbounded varchar, another collation, a numeric id, domains or a view over such a table', async () => {
    const ACCEPTED = [
      undefined,
      'CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, tag text, created_at timestamptz NOT NULL DEFAULT now())',
      'CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, tag text, note text)',
      "CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, tag text, owner text NOT NULL DEFAULT 'plant-store', serial bigserial, seen bigint GENERATED ALWAYS AS (id % 7) STORED)",
      'CREATE TABLE t (id bigint NOT NULL UNIQUE, name varchar, tag varchar, row_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY)',
      'CREATE TABLE t (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name text COLLATE "C" NOT NULL, tag text COLLATE "POSIX")',
      'CREATE TABLE t (id numeric PRIMARY KEY, name text NOT NULL, tag text)',
      'CREATE TABLE t (id numeric(19) PRIMARY KEY, name text NOT NULL, tag text)',
      // Domains, judged by their base type and default; a domain over a domain is not judged.
      'CREATE DOMAIN $t_id AS bigint; CREATE DOMAIN $t_text AS text; CREATE TABLE t (id $t_id PRIMARY KEY, name $t_text NOT NULL, tag $t_text)',
      'CREATE DOMAIN $t_zero AS int DEFAULT 0; CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, tag text, x $t_zero NOT NULL)',
      'CREATE DOMAIN $t_a AS bigint; CREATE DOMAIN $t_b AS $t_a; CREATE TABLE t (id $t_b PRIMARY KEY, name text NOT NULL, tag text)',
      // An updatable view over a fitting table: ON CONFLICT (id) uses the table's key.
      'CREATE TABLE $t_base (id bigint PRIMARY KEY, name text NOT NULL, tag text); CREATE VIEW $t AS SELECT * FROM $t_base',
    ];
    for (const create of ACCEPTED) {
      const table = `fit_${++made}`;
      if (create !== undefined) await run(create.replaceAll('$t', table).replace('TABLE t (', `TABLE ${table} (`));
      const store = await createPostgresStore({ url: database.url, table });
      try {
        expect(await store.insertIfAbsent(9223372036854775807n, { name: 'A', tag: 'x' }), create).toEqual({ status: 'inserted' });
        expect(await store.insertIfAbsent(-9223372036854775808n, { name: '' }), create).toEqual({ status: 'inserted' });
        expect(await store.insertIfAbsent(9007199254740993n, { name: 'A' }), create).toEqual({ status: 'inserted' });
        expect(await store.insertIfAbsent(9007199254740992n, { name: 'A' }), create).toEqual({ status: 'inserted' });
        expect(await store.insertIfAbsent(9007199254740993n, { name: 'A' }), create).toEqual({ status: 'exists', existing: { name: 'A' } });
        expect(await store.get(9223372036854775807n), create).toEqual({ name: 'A', tag: 'x' });
      } finally {
        await store.close();
      }
    }
  });

  it('starts four instances at once on a new table where transactions default to REPEATABLE READ', async () => {
    const url = `${database.url}?default_transaction_isolation=repeatable%20read`;
    const stores = await Promise.all(Array.from({ length: 4 }, () => createPostgresStore({ url, table: 'repeatable_start' })));
    try {
      expect(await stores[1]!.insertIfAbsent(1n, { name: 'one' })).toEqual({ status: 'inserted' });
      expect(await stores[2]!.get(1n)).toEqual({ name: 'one' });
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
