// Runs in vitest on Node 24, against a real PostgreSQL (the embedded binaries) and two
// standalone Node 22 servers in processes of their own: both race to create the same ids,
// with the database's default_transaction_isolation at SERIALIZABLE, then REPEATABLE READ
// (how CockroachDB, YugabyteDB and Aurora DSQL work, which cannot be installed here).
import { Agent } from 'node:http';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { usePostgres } from './support/use-postgres.ts';
import { runtime, spawnServer } from './runtimes.ts';

const HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
/** Ids raced at each level; each is sent to both servers at once. */
const IDS = 1_500;
/** Races in flight at once (two requests each). */
const CONCURRENCY = 32;

describe('two standalone servers racing the same ids on PostgreSQL', () => {
  const database = usePostgres();

  for (const isolation of ['serializable', 'repeatable read']) {
    it(`at ${isolation}: exactly one winner per id, no 503`, async () => {
      // A database per level, its default set before any server connects.
      const name = `race_${isolation.replace(' ', '_')}`;
      const admin = postgres(database().url, { onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      await admin.unsafe(`ALTER DATABASE ${name} SET default_transaction_isolation = '${isolation}'`);
      await admin.end();
      const url = database().url.replace(/\/postgres$/, `/${name}`);
      const servers = await Promise.all([0, 1].map(() => spawnServer(runtime('Node 22'), 'working', { PLANT_STORE_DATABASE_URL: url })));
      const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: CONCURRENCY }));
      try {
        const statuses = new Map<number, number[]>();
        let next = 1;
        const racer = async () => {
          for (let id = next++; id <= IDS; id = next++) {
            statuses.set(
              id,
              await Promise.all(
                servers.map((server, s) =>
                  send(server.baseUrl, { path: '/plants', headers: HEADERS, body: `{"id":${id},"name":"server-${s}"}`, agent: agents[s]! }).then(
                    (response) => response.status,
                    () => 0,
                  ),
                ),
              ),
            );
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, racer));
        const pairs = [...statuses.values()].map((pair) => [...pair].sort().join());
        const failed = pairs.filter((pair) => pair !== '200,409');
        console.log(
          `${isolation}: ${IDS} ids raced by two servers, ${pairs.filter((pair) => pair === '200,409').length} with one 200 and one 409, ` +
            `${
              pairs
                .join()
                .split(',')
                .filter((status) => status === '503').length
            } answers 503`,
        );
        expect(failed).toEqual([]);
        // The winner's plant is the one stored.
        const sql = postgres(url, { onnotice: () => {} });
        try {
          const rows = await sql<{ id: string; name: string }[]>`SELECT id::text AS id, name FROM plants`;
          const winners = [...statuses].map(([id, pair]) => [id, `"server-${pair.indexOf(200)}"`] as const);
          const stored = new Map(rows.map((row) => [Number(row.id), row.name]));
          expect(rows.length).toBe(IDS);
          expect(winners.filter(([id, winner]) => stored.get(id) !== winner)).toEqual([]);
        } finally {
          await sql.end();
        }
        for (const server of servers) expect(server.child.exitCode).toBe(null);
      } finally {
        for (const agent of agents) agent.destroy();
        await Promise.all(servers.map((server) => server.close()));
      }
      // How contended the race was: each serialization failure rolled a batch back (the
      // servers' backends have ended, so their counts are in); the store tried them again.
      const stats = postgres(database().url, { onnotice: () => {} });
      const [row] = await stats`SELECT xact_rollback::int AS n FROM pg_stat_database WHERE datname = ${name}`;
      await stats.end();
      console.log(`${isolation}: ${row?.['n']} transactions rolled back and tried again`);
    }, 60_000);
  }
});
