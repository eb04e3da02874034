import { Agent } from 'node:http';
import { CONFORMANCE_TOKEN, send, type RawResponse } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestDatabase } from './support/start-postgres.mjs';
import { runtime, spawnServer, type SpawnedServer } from './runtimes.ts';

const HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };

describe('several standalone instances over one PostgreSQL database', () => {
  let database: TestDatabase;
  const servers: SpawnedServer[] = [];
  const startInstance = async (name = 'Node 24') => {
    const server = await spawnServer(runtime(name), 'working', { PLANT_STORE_DATABASE_URL: database.url });
    expect(server.output()).toMatch(/\(store: postgres at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres\)/);
    servers.push(server);
    return server;
  };
  const create = (server: SpawnedServer, id: bigint, name: string, agent?: Agent): Promise<RawResponse> =>
    send(server.baseUrl, { path: '/plants', headers: HEADERS, body: `{"id":${id},"name":"${name}"}`, ...(agent ? { agent } : {}) });

  beforeAll(async () => {
    database = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await database.destroy();
  });

  let first: SpawnedServer;
  let second: SpawnedServer;
  const ids = Array.from({ length: 100 }, (_, i) => 9_007_199_254_740_000n + BigInt(i) * 1_000_003n);

  it('decides every id exactly once across two instances: one 200 and one 409 per id', async () => {
    [first, second] = await Promise.all([startInstance(), startInstance()]);
    const agents = [new Agent({ keepAlive: true, maxSockets: 16 }), new Agent({ keepAlive: true, maxSockets: 16 })];
    try {
      const results = await Promise.all(
        ids.map(async (id) => {
          const [a, b] = await Promise.all([create(first, id, 'from-first', agents[0]), create(second, id, 'from-second', agents[1])]);
          return [a.status, b.status].sort().join(' ');
        }),
      );
      expect(results).toEqual(ids.map(() => '200 409'));
    } finally {
      for (const agent of agents) agent.destroy();
    }
    // Ids above 2^53 stay exact through the database: these two are different plants.
    expect((await create(first, 9_007_199_254_740_993n, 'odd')).status).toBe(200);
    expect((await create(second, 9_007_199_254_740_992n, 'even')).status).toBe(200);
    expect((await send(first.baseUrl, { path: '/plants', headers: HEADERS, body: '{"id":9223372036854775807,"name":"max"}' })).status).toBe(200);
  });

  it('keeps every plant across a restart of both instances: replay 200, other content 409', async () => {
    const winners = new Map<bigint, string>();
    for (const id of ids.slice(0, 20)) {
      const replayFirst = await create(first, id, 'from-first');
      winners.set(id, replayFirst.status === 200 ? 'from-first' : 'from-second');
    }
    await Promise.all([first.close(), second.close()]);
    expect([await first.exited, await second.exited]).toEqual([0, 0]);
    [first, second] = await Promise.all([startInstance(), startInstance()]);
    for (const [id, name] of winners) {
      expect((await create(second, id, name)).status).toBe(200);
      expect((await create(first, id, name === 'from-first' ? 'from-second' : 'from-first')).status).toBe(409);
    }
    expect((await send(second.baseUrl, { path: '/plants', headers: HEADERS, body: '{"id":9223372036854775807,"name":"max"}' })).status).toBe(200);
    expect((await create(first, 9_007_199_254_740_992n, 'odd')).status).toBe(409);
  });

  it('answers 503 (1501) while the database is down, and recovers without a restart', async () => {
    await database.stop();
    const down = await create(first, 123n, 'during outage');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toMatchObject({ error: 1501 });
    expect(down.body).not.toContain('postgres');
    await database.start();
    let recovered: RawResponse | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      recovered = await create(first, 123n, 'after outage');
      if (recovered.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered?.status).toBe(200);
    expect((await create(second, 123n, 'after outage')).status).toBe(200);
  });

  it('serves from Bun and Deno too, over the same table: one winner per id among Node, Bun and Deno', async () => {
    const [bun, deno] = await Promise.all([startInstance('Bun'), startInstance('Deno')]);
    const racers = [first, bun, deno];
    const raced = Array.from({ length: 50 }, (_, i) => 4_611_686_018_427_387_904n + BigInt(i));
    const outcomes = await Promise.all(raced.map((id) => Promise.all(racers.map((racer, r) => create(racer, id, `racer-${r}`)))));
    expect(
      outcomes.map((answers) =>
        answers
          .map((answer) => answer.status)
          .sort()
          .join(' '),
      ),
    ).toEqual(raced.map(() => '200 409 409'));
    // What Node stored earlier, Bun and Deno read back exactly.
    expect((await create(bun, 9_007_199_254_740_993n, 'odd')).status).toBe(200);
    expect((await create(deno, 9_007_199_254_740_993n, 'even')).status).toBe(409);
  });
});
