// Runs in vitest on Node 24, against a real Patroni cluster on 127.0.0.1 (support/patroni-cluster.ts:
// Debian 12's etcd 3.4, Patroni 3.0, HAProxy 2.6 and PostgreSQL 15, configured by the snippets
// docs/scaling.md shows), under a standalone Node 24 server in its own process that reaches the
// database through HAProxy. A planned switchover, then the leader's Patroni and PostgreSQL killed
// with SIGKILL, both under load. Skips, saying how to install the packages, where they are missing.
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtime, spawnServer, type SpawnedServer } from '../runtimes.ts';
import { expectAcknowledgedStored, startOutageLoad, type Outcome } from '../support/outage-load.ts';
import { findPatroni, INSTALL_PATRONI } from '../support/patroni-binaries.mjs';
import { startPatroniCluster, type PatroniCluster } from '../support/patroni-cluster.ts';
import { until } from '../support/until.ts';

/** Patroni's `ttl` in docs/snippets/patroni.yml: a leader that stops renewing its key loses it after this long. */
const TTL_MS = 10_000;
/** The store's deadline for a create (4.5 s) and a second for the answer to come back. */
const SLOWEST_ANSWER_MS = 5_500;
const HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };

/** The figures a run prints, for docs/scaling.md. */
function describeRun(what: string, outcomes: readonly Outcome[], from: number): string {
  const ok = outcomes.filter((outcome) => outcome.status === 200);
  const failed = outcomes.filter((outcome) => outcome.status !== 200);
  const firstAfter = ok.filter((outcome) => outcome.began >= from).reduce((first, o) => Math.min(first, o.began + o.ms), Number.POSITIVE_INFINITY);
  return (
    `${what}: ${outcomes.length} creates, ${ok.length} answered 200, ${failed.length} answered 503, ` +
    `last failure begun ${failed.length === 0 ? '-' : `${Math.max(...failed.map((o) => o.began)) - from} ms`} after it, ` +
    `first 200 after it ${firstAfter === Number.POSITIVE_INFINITY ? 'never' : `${firstAfter - from} ms`}, ` +
    `slowest answer ${outcomes.reduce((most, o) => Math.max(most, o.ms), 0)} ms`
  );
}

/** `/readyz` asked every 100 ms until `stop()`: each answer's time and status (0: no answer). */
function watchReadiness(baseUrl: string) {
  const samples: { at: number; status: number }[] = [];
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const at = Date.now();
      const status = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(6_000) }).then(
        (response) => response.status,
        () => 0,
      );
      samples.push({ at, status });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    samples,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

const missing = findPatroni() === undefined;
describe.skipIf(missing)(
  `PostgreSQL 15 under Patroni (etcd, HAProxy): the standalone server through HAProxy${missing ? ` (skipped: ${INSTALL_PATRONI})` : ''}`,
  () => {
    let cluster: PatroniCluster;
    let server: SpawnedServer;
    beforeAll(async () => {
      cluster = await startPatroniCluster();
      server = await spawnServer(runtime('Node 24'), 'working', { PLANT_STORE_DATABASE_URL: cluster.url });
    }, 90_000);
    afterAll(async () => {
      await server?.close();
      await cluster?.destroy();
    });

    /** The checks every run shares: only 200 and 503, each in time, the server up, and every 200 on the database. */
    async function expectServedThrough(outcomes: readonly Outcome[]): Promise<void> {
      expect(outcomes.filter((outcome) => ![200, 503].includes(outcome.status))).toEqual([]);
      expect(outcomes.filter((outcome) => outcome.ms > SLOWEST_ANSWER_MS)).toEqual([]);
      expect(server.child.exitCode).toBe(null);
      expect(server.output()).not.toMatch(/unhandled|uncaught/i);
      await expectAcknowledgedStored(cluster.url, outcomes);
    }

    it('a planned switchover (patronictl switchover): every create that failed succeeds when sent again, and none answered 200 is lost', async () => {
      const load = startOutageLoad(server.baseUrl, 16);
      let switchedAt = 0;
      try {
        await until(() => load.outcomes.filter((outcome) => outcome.status === 200).length >= 300, 20_000, '300 creates before the switchover');
        switchedAt = Date.now();
        await cluster.switchover('pg1', 'pg2');
        await cluster.healthy('pg2', 60_000);
        await until(() => load.outcomes.some((outcome) => outcome.began > Date.now() - 1_000 && outcome.status === 200), 10_000, 'creates answered again');
      } finally {
        await load.stopAt(0);
      }
      const { outcomes } = load;
      console.log(describeRun('switchover', outcomes, switchedAt));
      await expectServedThrough(outcomes);
      // Each create answered 503 is sent again as it was: the store either stored it before the
      // answer (a replay, 200) or not (stored now, 200); never a 409 or another 503.
      const failed = outcomes.filter((outcome) => outcome.status !== 200);
      const retried = await Promise.all(
        failed.map(async ({ id }) => (await send(server.baseUrl, { path: '/plants', headers: HEADERS, body: `{"id":${id},"name":"p${id}"}` })).status),
      );
      expect(retried.filter((status) => status !== 200)).toEqual([]);
      await expectAcknowledgedStored(
        cluster.url,
        failed.map((outcome) => ({ ...outcome, status: 200 })),
      );
    }, 90_000);

    it(`the leader's Patroni and PostgreSQL killed with SIGKILL: none answered 200 is lost, creates succeed again within the ${TTL_MS / 1_000} s TTL plus 5 s, /readyz says 503 meanwhile`, async () => {
      const leader = await cluster.healthy(undefined, 60_000);
      const load = startOutageLoad(server.baseUrl, 16);
      const readiness = watchReadiness(server.baseUrl);
      const recoveredBy = () => killedAt + TTL_MS + 5_000;
      let killedAt = Number.POSITIVE_INFINITY;
      try {
        await until(
          () => load.outcomes.filter((outcome) => outcome.status === 200 && outcome.began > Date.now() - 2_000).length >= 300,
          20_000,
          '300 creates before the kill',
        );
        cluster.kill(leader);
        // After the signals: the kill reads /proc first, while creates still succeed.
        killedAt = Date.now();
        await load.stopAt(recoveredBy() + 2_000);
      } finally {
        await load.stopAt(0);
        await readiness.stop();
      }
      const { outcomes } = load;
      const samples = readiness.samples;
      const afterKill = samples.filter((sample) => sample.at > killedAt);
      const readyAgain = afterKill.findIndex((sample) => sample.status === 200);
      console.log(
        `${describeRun(`${leader} killed`, outcomes, killedAt)}; /readyz asked after the kill, ms after it: status, until the first 200: ` +
          afterKill
            .slice(0, readyAgain + 1)
            .map((sample) => `${sample.at - killedAt}: ${sample.status}`)
            .join(', '),
      );
      await expectServedThrough(outcomes);
      expect(outcomes.filter((outcome) => outcome.began >= recoveredBy() && outcome.status !== 200)).toEqual([]);
      expect(outcomes.filter((outcome) => outcome.began >= recoveredBy()).length).toBeGreaterThan(50);
      // While no primary answers, /readyz says so; from the bound on, it says ready.
      expect(samples.some((sample) => sample.at > killedAt && sample.status === 503)).toBe(true);
      expect(samples.filter((sample) => sample.at >= recoveredBy() && sample.status !== 200)).toEqual([]);
      expect(samples.filter((sample) => ![200, 503].includes(sample.status))).toEqual([]);
    }, 90_000);
  },
);
