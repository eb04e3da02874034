// Runs on Node (vitest): the rqlite store against a real 3-node rqlited cluster: one winner per id across nodes, and a leader killed mid-creates.
import { describeStoreContract } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRqliteStore } from '@plant-store/store-rqlite';
import { kill, leaderSeenBy, startCluster, stopAll, waitFor, type RqliteNodeProcess } from '../support/rqlited.ts';

let nodes: RqliteNodeProcess[];
const urls = () => nodes.map((node) => node.url);

beforeAll(async () => {
  nodes = await startCluster(3);
}, 40_000);

afterAll(stopAll);

let tables = 0;
// The contract's stores each get every node, the first one rotating, so that calls reach followers too.
describeStoreContract('store-rqlite, three nodes', {
  create: () => {
    const first = tables % 3;
    return createRqliteStore({ urls: [...urls().slice(first), ...urls().slice(0, first)], table: `contract_${++tables}` });
  },
  numRuns: 15,
});

describe('createRqliteStore on a 3-node cluster', () => {
  it('lets exactly one of the creates of an id win when they are sent to different nodes at once', async () => {
    // One store per node, each knowing only its node: followers forward to the leader, and the log decides.
    const stores = nodes.map((node) => createRqliteStore({ urls: [node.url], table: 'one_winner' }));
    await Promise.all(stores.map((store) => store.migrate()));
    for (let id = 1n; id <= 20n; id++) {
      const results = await Promise.all(
        stores.flatMap((store, i) => [store.insertIfAbsent(id, { name: `node ${i} a` }), store.insertIfAbsent(id, { name: `node ${i} b` })]),
      );
      const winners = results.flatMap((result, i) => (result.status === 'inserted' ? [i] : []));
      expect(winners, `id ${id}: ${JSON.stringify(results)}`).toHaveLength(1);
      const stored = { name: `node ${Math.floor(winners[0]! / 2)} ${winners[0]! % 2 === 0 ? 'a' : 'b'}` };
      for (const result of results) if (result.status === 'exists') expect(result.existing).toEqual(stored);
      for (const store of stores) expect(await store.get(id)).toEqual(stored);
    }
  });

  it('keeps taking creates when the leader is killed mid-creates, and loses none that it acknowledged', async () => {
    const leaderId = await leaderSeenBy(nodes[0]!);
    const leader = nodes.find((node) => node.id === leaderId)!;
    expect(leader).toBeDefined();
    // The leader first, so that the store must fail over from it.
    const ordered = [leader.url, ...nodes.filter((node) => node !== leader).map((node) => node.url)];
    // The default deadline, 4.5 s, outlasts an election (about a second with these nodes' 500 ms Raft timeouts).
    const store = createRqliteStore({ urls: ordered, table: 'failover' });
    await store.migrate();

    const acknowledged: bigint[] = [];
    const failed: string[] = [];
    let next = 1n;
    let killedAt: number | undefined;
    let afterKill = 0;
    const started = performance.now();
    /** One of four writers: creates ids one after another until 40 creates were acknowledged after the kill. */
    const writer = async () => {
      while (afterKill < 40 && performance.now() - started < 20_000) {
        const id = next++;
        try {
          const result = await store.insertIfAbsent(id, { name: `plant ${id}` });
          // A create retried on another node may find its own row, stored before the failure: a replay of itself.
          if (result.status === 'inserted' || (result.status === 'exists' && result.existing.name === `plant ${id}`)) acknowledged.push(id);
          else throw new Error(`create ${id}: ${JSON.stringify(result)}`);
          if (killedAt !== undefined) afterKill++;
        } catch (error) {
          if (killedAt === undefined) throw error;
          failed.push(`${id}: ${String(error)}; ${String((error as Error).cause)}`);
        }
        if (killedAt === undefined && acknowledged.length >= 20) {
          killedAt = performance.now();
          await kill(leader, 'SIGKILL');
        }
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    expect(killedAt).toBeDefined();
    // None failed but by the store's deadline: each create in flight at the kill, or sent during the election, waits it
    // out (about a second) within its 4.5 s, or is refused as a timeout (503), which a client retries; none otherwise.
    console.log(JSON.stringify({ acknowledged: acknowledged.length, afterKill, failed: failed.length }));
    expect(failed.filter((failure) => !failure.includes('StoreTimeoutError'))).toEqual([]);
    expect(afterKill).toBeGreaterThanOrEqual(40);

    const survivors = nodes.filter((node) => node !== leader);
    await waitFor(
      'a new leader among the survivors',
      async () => (await leaderSeenBy(survivors[0]!)) !== undefined && (await leaderSeenBy(survivors[0]!)) !== leader.id,
      5_000,
    );
    // Every acknowledged create is there, read through the log from each survivor.
    for (const survivor of survivors) {
      const reader = createRqliteStore({ urls: [survivor.url], table: 'failover' });
      const missing: bigint[] = [];
      for (const id of acknowledged) if ((await reader.get(id))?.name !== `plant ${id}`) missing.push(id);
      expect(missing, `acknowledged but missing on ${survivor.id}`).toEqual([]);
    }
  });
});
