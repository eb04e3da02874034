// Runs in the test process (Node): load and checks shared by the tests that take a
// database away under a standalone server and bring it (or another) back.
import { Agent } from 'node:http';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import postgres from 'postgres';
import { expect } from 'vitest';

const HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };

/** One create of an {@link OutageLoad}: its id (its name is `p<id>`), when it began, how long it took, its status (0: no answer). */
export interface Outcome {
  readonly id: number;
  readonly began: number;
  readonly ms: number;
  readonly status: number;
}

/** Creates from kept-alive clients that go on through an outage: see {@link startOutageLoad}. */
export interface OutageLoad {
  /** Every create answered so far, in the order answered. */
  readonly outcomes: readonly Outcome[];
  /** Ends the load at `time` (a `Date.now()` value; 0 for now); resolves once every client stopped. */
  stopAt(time: number): Promise<void>;
}

/**
 * `clients` kept-alive clients creating plants with fresh ids through
 * `baseUrl`, each create after the previous one's answer, whatever that was:
 * unlike the testing kit's `startKeepAliveLoad`, an outage does not stop them.
 * After an answer other than 200 a client pauses 20 ms, so that an outage
 * (503 comes with `Connection: close`) is no busy loop.
 */
export function startOutageLoad(baseUrl: string, clients: number): OutageLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const outcomes: Outcome[] = [];
  let next = 1;
  let stopAt = Number.POSITIVE_INFINITY;
  const client = async () => {
    while (Date.now() < stopAt) {
      const id = next++;
      const began = Date.now();
      const status = await send(baseUrl, { path: '/plants', headers: HEADERS, body: `{"id":${id},"name":"p${id}"}`, agent }).then(
        (response) => response.status,
        () => 0,
      );
      outcomes.push({ id, began, ms: Date.now() - began, status });
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const running = Array.from({ length: clients }, client);
  return {
    outcomes,
    async stopAt(time) {
      stopAt = time;
      await Promise.all(running);
      agent.destroy();
    },
  };
}

/** Fails unless every create answered 200 in `outcomes` is a row of `url`'s `plants` table, with its name. */
export async function expectAcknowledgedStored(url: string, outcomes: readonly Outcome[]): Promise<void> {
  const acknowledged = outcomes.filter((outcome) => outcome.status === 200).map((outcome) => outcome.id);
  const sql = postgres(url, { onnotice: () => {} });
  try {
    const rows = await sql<{ id: string; name: string }[]>`SELECT id::text AS id, name FROM plants WHERE id = ANY(${acknowledged}::bigint[])`;
    const stored = new Map(rows.map((row) => [Number(row.id), row.name]));
    expect(acknowledged.filter((id) => stored.get(id) !== `"p${id}"`)).toEqual([]);
  } finally {
    await sql.end();
  }
}
