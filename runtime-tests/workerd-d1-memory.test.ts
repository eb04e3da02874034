// Runs under vitest on Node 24: the standalone workerd server on D1 (its default store) under a long run of creates,
// its memory read from /proc: what it holds levels off instead of growing with every query.
import { Agent } from 'node:http';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtime, spawnServer, type SpawnedServer } from './runtimes.ts';
import { commandOf, processTree, treeRssMiB } from './support/process-memory.ts';

const CREATES = 80_000;
const WARM_UP = 20_000;
/** How much more the front and workerd together may hold, sampled every 2,000 creates after the warm-up, than at its end. */
const GROWTH_BOUND_MIB = 50;
const CLIENTS = 8;
const SAMPLE_EVERY = 2_000;

const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
const body = (id: number, name = `plant ${id}`) => JSON.stringify({ id, name, tag: 'd1' });

let server: SpawnedServer;
beforeAll(async () => {
  // No PLANT_STORE_DATABASE_URL: workerd keeps plants in D1, in the server's own data directory.
  server = await spawnServer(runtime('workerd'), 'working');
});
afterAll(async () => {
  await server?.close();
});

describe('the standalone workerd server on D1', () => {
  it(
    `holds at most ${GROWTH_BOUND_MIB} MiB more after the first ${WARM_UP.toLocaleString('en')} of ${CREATES.toLocaleString('en')} creates, every one answered 200 and stored`,
    { timeout: 400_000 },
    async () => {
      const agents = Array.from({ length: CLIENTS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
      const statuses = new Map<number, number>();
      const samples: { created: number; rss: number }[] = [];
      let next = 0;
      let answered = 0;
      const client = async (agent: Agent) => {
        for (let id = ++next; id <= CREATES; id = ++next) {
          const response = await send(server.baseUrl, { path: '/plants', headers, body: body(id), agent });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (++answered % SAMPLE_EVERY === 0) samples.push({ created: answered, rss: treeRssMiB(server.child.pid!) });
        }
      };
      // What is measured is the front and workerd below it.
      const commands = processTree(server.child.pid!).map(commandOf);
      expect(commands.filter((command) => command.startsWith('workerd'))).toHaveLength(1);
      try {
        await Promise.all(agents.map(client));
      } finally {
        for (const agent of agents) agent.destroy();
      }
      const atWarmUp = samples.find((sample) => sample.created === WARM_UP)!.rss;
      const after = samples.filter((sample) => sample.created > WARM_UP);
      const most = Math.max(...after.map((sample) => sample.rss));
      const figures = samples.map((sample) => `${sample.created / 1000}k ${sample.rss.toFixed(0)}`).join(', ');
      console.log(
        `workerd on D1, front and workerd resident MiB by creates answered: ${figures}; most after the warm-up ${(most - atWarmUp).toFixed(1)} MiB over it`,
      );
      expect(Object.fromEntries(statuses)).toEqual({ 200: CREATES });
      expect(most - atWarmUp, figures).toBeLessThanOrEqual(GROWTH_BOUND_MIB);
      // Stored, the first and the last: the same create again is a replay (200), another name a conflict (409).
      for (const id of [1, WARM_UP, CREATES]) {
        expect((await send(server.baseUrl, { path: '/plants', headers, body: body(id) })).status).toBe(200);
        expect((await send(server.baseUrl, { path: '/plants', headers, body: body(id, 'another') })).status).toBe(409);
      }
    },
  );
});
