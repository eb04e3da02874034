// Runs in vitest on Node 24, against a real PostgreSQL (the embedded binaries) behind
// Debian's PgBouncer in transaction mode, configured by docs/snippets/pgbouncer.ini, and a
// standalone Node 22 server in its own process: the store contract through the pooler, and
// the statement timeout still cutting a statement held by a lock. Skips, saying how to
// install it, where PgBouncer is missing (scripts/ensure-pgbouncer.mjs installs it as root).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN, describeStoreContract, send } from '@plant-store/testing';
import { createPostgresStore, type PostgresStore } from '@plant-store/store-postgres';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPgbouncerConfig, findPgbouncer, INSTALL_PGBOUNCER, startPgbouncer, type TestPgbouncer } from './support/pgbouncer.mjs';
import { startPostgres, type TestDatabase } from './support/start-postgres.mjs';
import { runtime, spawnServer } from './runtimes.ts';
import { until } from './support/until.ts';

const SNIPPET = readFileSync(fileURLToPath(new URL('../docs/snippets/pgbouncer.ini', import.meta.url)), 'utf8');
const HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
/** The standalone server's store timeout (the store's 4.5 s statementTimeoutMs under the handler's 5 s). */
const STORE_TIMEOUT_MS = 5_000;
/** Runs of each property, as store-contract.test.ts runs them. */
const CONTRACT_RUNS = 50;

const binary = findPgbouncer();
if (binary === undefined) console.warn(`pgbouncer.test.ts: skipped, no PgBouncer: ${INSTALL_PGBOUNCER}`);

describe.skipIf(binary === undefined)('PgBouncer in transaction mode (docs/snippets/pgbouncer.ini) in front of PostgreSQL', () => {
  let database: TestDatabase;
  let bouncer: TestPgbouncer;
  /** The store's URL: the `plants` database through PgBouncer. */
  let url: string;
  beforeAll(async () => {
    database = await startPostgres();
    const admin = postgres(database.url, { onnotice: () => {} });
    await admin.unsafe('CREATE DATABASE plants');
    await admin.end();
    const password = decodeURIComponent(new URL(database.url).password);
    bouncer = await startPgbouncer({
      config: (at) => fillPgbouncerConfig(SNIPPET, { databasePort: database.port, ...at }),
      userlist: `"postgres" "${password}"\n`,
    });
    url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${bouncer.port}/plants`;
  }, 120_000);
  afterAll(async () => {
    await bouncer?.destroy();
    await database?.destroy();
  });

  let made = 0;
  describeStoreContract('PostgreSQL through PgBouncer in transaction mode', {
    create: () => createPostgresStore({ url, table: `contract_${++made}` }),
    dispose: (store) => (store as PostgresStore).close(),
    numRuns: CONTRACT_RUNS,
  });

  it('a create held by LOCK TABLE is answered 503 within the store timeout, the database cut its statement, and the lock holder’s commit does not store it', async () => {
    const server = await spawnServer(runtime('Node 22'), 'working', { PLANT_STORE_DATABASE_URL: url });
    // Straight to PostgreSQL, past the pooler: one connection holds the lock, the other watches.
    const direct = postgres(database.url.replace(/\/postgres$/, '/plants'), { max: 2, onnotice: () => {} });
    try {
      const create = (id: number) => send(server.baseUrl, { path: '/plants', headers: HEADERS, body: `{"id":${id},"name":"p${id}"}` });
      expect((await create(1)).status).toBe(200);
      const locker = await direct.reserve();
      await locker`BEGIN`;
      await locker`LOCK TABLE plants IN ACCESS EXCLUSIVE MODE`;
      const began = Date.now();
      const held = await create(2);
      const took = Date.now() - began;
      expect(held.status).toBe(503);
      expect(took).toBeLessThan(STORE_TIMEOUT_MS);
      // SET LOCAL statement_timeout went through the pooler: no server connection is left waiting on the lock.
      await until(
        async () => (await direct`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)[0]!['n'] === 0,
        2_000,
        'the held INSERT cancelled by PostgreSQL',
      );
      await locker`COMMIT`;
      locker.release();
      // Had the INSERT still been waiting, it would have committed now.
      expect(await direct`SELECT id FROM plants WHERE id = 2`).toEqual([]);
      expect((await create(3)).status).toBe(200);
      console.log(`PgBouncer, LOCK TABLE held: 503 after ${took} ms`);
      expect(server.child.exitCode).toBe(null);
    } finally {
      await direct.end();
      await server.close();
    }
  }, 60_000);
});
