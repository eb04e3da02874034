// Runs in vitest on Node 24 (the `runtimes` project), against the standalone server on Node 22, 24 and 26,
// Deno (its node:http) and workerd (whose front is node:http), each started as its own process, all at once.
import type { Socket } from 'node:net';
import { CONFORMANCE_TOKEN, parseResponses } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runtime, spawnServer, type SpawnedServer } from './runtimes.ts';
import { heldConnections } from './support/held-connections.ts';
import { openSlowReaders } from './support/slow-readers.ts';
import { until } from './support/until.ts';

// Clients that pipeline hundreds of requests in one write (docs/contract.md, "Pipelining"). One that
// reads none of its answers is cut as soon as more than 32 of them wait behind bytes the kernel would
// not take, long before the 30 s write timeout would cut it, so that it cannot make the server hold
// hundreds of requests and answers for that long. One that reads is answered whole, however deep it
// pipelines, and a create is stored exactly when it is answered 200.

/** Pipelined creates, whose answers the kernel's buffers take whole. */
const PIPELINED = 200;
/** Pipelined requests for the OpenAPI document (13 KB): more answer bytes (6.5 MB) than the kernel's buffers take on loopback. */
const PIPELINED_GETS = 500;
const WRITE_TIMEOUT_MS = 30_000;
/** Well within the write timeout: the cut comes as soon as the answers back up, a few ms after the write. */
const CUT_WITHIN_MS = 10_000;

const getDocument = () => 'GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n';
const createWith = (id: number) => {
  const body = JSON.stringify({ id, name: `pipelined-${id}` });
  return `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${CONFORMANCE_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
};

/** A create on a connection of its own, and its status. */
async function create(baseUrl: string, id: number, name: string): Promise<number> {
  const response = await fetch(`${baseUrl}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, name }),
  });
  await response.text();
  return response.status;
}

/** Reads a client's answers until `count` are in or the server closes: their statuses, in order. */
function answersOf(socket: Socket, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    let received = '';
    const statuses = () => parseResponses(received).map(({ status }) => status);
    const timer = setTimeout(() => reject(new Error(`${statuses().length} of ${count} answers within 20 s`)), 20_000);
    const done = () => {
      clearTimeout(timer);
      resolve(statuses());
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (statuses().length === count) done();
    });
    socket.once('close', done);
    socket.resume();
  });
}

vi.setConfig({ maxConcurrency: 8 });
describe.concurrent.each(['Node 22', 'Node 24', 'Node 26', 'Deno', 'workerd'])('%s standalone server, clients that pipeline', (name) => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnServer(runtime(name), 'working', { PLANT_STORE_WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    `cuts 20 clients that pipeline ${PIPELINED_GETS} requests and read nothing within ${CUT_WITHIN_MS} ms, not at the write timeout`,
    { concurrent: false },
    async () => {
      const port = Number(new URL(server.baseUrl).port);
      const clientPorts = new Set<number>();
      const sent = performance.now();
      const sockets = await openSlowReaders(server.baseUrl, 20, () => getDocument().repeat(PIPELINED_GETS), clientPorts);
      try {
        // Counted in the kernel's table, as the clients' connections the server still holds; read twice, as an
        // entry may be missed while the kernel writes the table.
        await until(() => heldConnections(port, clientPorts) === 0 && heldConnections(port, clientPorts) === 0, CUT_WITHIN_MS, `${name}: the clients cut`);
        console.log(JSON.stringify({ name, cutAfterMs: Math.round(performance.now() - sent) }));
        // Other clients are answered as before: at once, or, while the server still answers what the clients sent
        // before the cut, refused by its gate of requests in flight (503) until it is through.
        const statuses: number[] = [];
        await until(
          async () => {
            statuses.push(await create(server.baseUrl, 1, 'after the cut'));
            return statuses.at(-1) === 200;
          },
          30_000,
          `${name}: a create after the cut`,
        );
        expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
        expect(server.child.exitCode).toBeNull();
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    },
  );

  it(`answers every one of ${PIPELINED} creates a client pipelines in one write and reads; each answered 200 is stored`, { concurrent: false }, async () => {
    const firstId = 1_000;
    const [socket] = await openSlowReaders(server.baseUrl, 1, () => Array.from({ length: PIPELINED }, (_, k) => createWith(firstId + k)).join(''));
    try {
      const statuses = await answersOf(socket!, PIPELINED);
      // All answered on the one connection, none cut: 200, or 503 from the gate of requests in flight when the
      // event loop is behind (a busy machine), which stores nothing.
      expect(statuses).toHaveLength(PIPELINED);
      expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(PIPELINED / 2);
      // The same id with another name: a conflict when stored, a new plant when refused.
      for (const k of [0, PIPELINED / 2, PIPELINED - 1]) {
        expect(await create(server.baseUrl, firstId + k, 'another')).toBe(statuses[k] === 200 ? 409 : 200);
      }
    } finally {
      socket!.destroy();
    }
  });
});
