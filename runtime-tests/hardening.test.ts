// Runs under vitest on Node 24: the standalone servers against slow, idle, pipelining and odd clients, each runtime in its own process.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN, parseResponses, rawExchange, startKeepAliveLoad, type RawStep } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runtime, spawnListening, spawnServer, useServer, withWorkers, type SpawnedServer } from './runtimes.ts';

// The standalone servers against clients that HTTP libraries would not be:
// oversized bodies on closing connections, slow uploads, bodies that stop,
// headers trickled a byte a second, idle connections, and more connections
// than the server has descriptors. Raw sockets throughout. workerd's own
// cases are in hardening-workerd.test.ts.

const here = fileURLToPath(new URL('.', import.meta.url));
const head = (length: number, extra = '') =>
  `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${CONFORMANCE_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;
const TOO_LARGE = '{"error":1400,"message":"body: larger than the limit of 1048576 bytes"}';
const TIMED_OUT = '{"error":1402,"message":"the request was not received in time"}';

/** Bytes for a body of `size`, as 64 KiB steps. */
/**
 * Asks for one answer on a kept-alive connection and then says nothing: the
 * answer must come, and the server must close the connection no sooner than
 * `fromMs` after it was opened, and before the client gives up at `watchMs`.
 * Only the lower bound is the runtime's promise; the watch is there to tell a
 * server that closes from one that never does, and is wide on purpose (a
 * loaded machine delays timers, never hastens them).
 */
async function expectClosedWhenIdle(baseUrl: string, fromMs: number, watchMs: number): Promise<void> {
  const result = await rawExchange(baseUrl, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], watchMs);
  expect(parseResponses(result.received).map((response) => response.status)).toEqual([200]);
  expect(result.closed).toBe(true);
  expect(result.elapsedMs).toBeGreaterThanOrEqual(fromMs);
}

function filler(size: number): RawStep[] {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const steps: RawStep[] = [];
  for (let left = size; left > 0; left -= chunk.byteLength) steps.push(chunk.subarray(0, Math.min(left, chunk.byteLength)));
  return steps;
}

/** A JSON body of `size` bytes sent over `seconds`, a piece every second. */
function trickled(id: number, seconds: number): { length: number; steps: RawStep[] } {
  const body = JSON.stringify({ id, name: 'x'.repeat(seconds * 4) });
  const per = Math.ceil(body.length / seconds);
  const steps: RawStep[] = [];
  for (let at = 0; at < body.length; at += per) steps.push({ pauseMs: 1000 }, body.slice(at, at + per));
  return { length: body.length, steps };
}

// One client at a time per test, each test on a server of its own or with ids of its own: they wait on the
// servers' timers far more than they work, so all of them run at once (the descriptor floods below do not),
// not five at a time (vitest's default maxConcurrency), which would queue them behind Bun's 35 s idle wait.
vi.setConfig({ maxConcurrency: 64 });
describe.concurrent('the standalone servers, one odd client at a time', () => {
  describe.concurrent.each(['Node 26', 'Bun', 'Deno', 'workerd'])('%s standalone server', (name) => {
    const server = useServer(runtime(name));

    it.each([4_000_000, 20_000_000])('answers a declared %i-byte body on a closing connection with the 413, not a reset', async (size) => {
      // Bun closes at once after answering a `Connection: close` request, and
      // body bytes still arriving then reset the connection under the 413.
      for (let attempt = 0; attempt < 5; attempt++) {
        const result = await rawExchange(server().baseUrl, [head(size, 'Connection: close\r\n'), ...filler(size)], 8_000);
        const [response] = parseResponses(result.received);
        expect({ attempt, status: response?.status, body: response?.body }).toEqual({ attempt, status: 413, body: TOO_LARGE });
        expect(result.closed).toBe(true);
      }
    });

    it('answers a declared oversized body on a kept-alive connection with the 413', async () => {
      const size = 4_000_000;
      const result = await rawExchange(
        server().baseUrl,
        [head(size), ...filler(size), { pauseMs: 300 }, 'GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'],
        // A watch, not a bound: the exchange ends at the second answer, and this file's tests all run at once.
        15_000,
        {
          answers: 2,
        },
      );
      const responses = parseResponses(result.received);
      expect(responses[0]?.body).toBe(TOO_LARGE);
      // The body is read and dropped, so the connection stays usable: the next request is answered.
      expect(responses.map((response) => response.status)).toEqual([413, 200]);
    });

    it('does not cut an upload that keeps sending for 12 s, within the 30 s request deadline', { timeout: 20_000 }, async () => {
      const { length, steps } = trickled(7001, 12);
      const result = await rawExchange(server().baseUrl, [head(length), ...steps], 16_000, { answers: 1 });
      const [response] = parseResponses(result.received);
      expect({ status: response?.status, body: response?.body }).toEqual({ status: 200, body: `{"name":"${'x'.repeat(48)}"}` });
    });
  });

  describe.concurrent.each(['Node 22', 'Node 24', 'Node 26', 'Bun', 'Deno', 'workerd'])('%s standalone server: half-closed and pipelined creates', (name) => {
    const server = useServer(runtime(name));

    it('answers a create whose client shut down its sending side after the request (nc -N), and the plant it answered 200 is stored', async () => {
      // RFC 9112 §9.6: a half-closed connection does not end the request, nor the client's wish for the answer.
      const body = '{"id":8101,"name":"half","tag":"closed"}';
      const result = await rawExchange(server().baseUrl, [head(body.length) + body, { shutdown: true }], 8_000);
      const answers = parseResponses(result.received);
      expect(answers.map(({ status, body }) => ({ status, body }))).toEqual([{ status: 200, body: '{"name":"half","tag":"closed"}' }]);
      // The server ends the connection once it has answered.
      expect(result.closed).toBe(true);
      // Stored: the same create replays 200, and other content for the id is a conflict.
      const again = await rawExchange(server().baseUrl, [head(body.length, 'Connection: close\r\n') + body], 8_000);
      expect(parseResponses(again.received).map(({ status }) => status)).toEqual([200]);
      const other = '{"id":8101,"name":"other"}';
      const conflict = await rawExchange(server().baseUrl, [head(other.length, 'Connection: close\r\n') + other], 8_000);
      expect(parseResponses(conflict.received).map(({ status }) => status)).toEqual([409]);
    });

    it('answers two creates pipelined in one write in order; on Bun (a known difference) neither, and a retry of each answers 200', async () => {
      const bodies = ['{"id":8201,"name":"first"}', '{"id":8202,"name":"second"}'];
      const result = await rawExchange(server().baseUrl, [bodies.map((body) => head(body.length) + body).join('')], 8_000, { answers: 2 });
      const statuses = parseResponses(result.received).map(({ status }) => status);
      if (name === 'Bun') {
        // docs/contract.md, "Known differences between runtimes": Bun.serve closes a connection on which a request
        // arrives while the answer before it is pending (oven-sh/bun#38128), and the SQLite store answers a turn later.
        // When this fails, Bun has fixed it: delete the contract's entry and this branch.
        expect({ statuses, closed: result.closed }).toEqual({ statuses: [], closed: true });
      } else {
        expect(statuses).toEqual([200, 200]);
      }
      // Whatever was heard, each create sent again gets its 200: a plant stored unheard replays, one never stored is stored now.
      for (const body of bodies) {
        const again = await rawExchange(server().baseUrl, [head(body.length, 'Connection: close\r\n') + body], 8_000);
        expect(parseResponses(again.received).map(({ status, body }) => ({ status, body }))).toEqual([{ status: 200, body: body.replace(/"id":\d+,/, '') }]);
      }
    });
  });

  // The standalone workerd server sends its 100 at once (docs/contract.md, "Expect: 100-continue"); the others when the
  // body is asked for.
  describe.concurrent.each(['Node 22', 'Node 24', 'Node 26', 'Deno'])('%s standalone server: a create that expects 100-continue', (name) => {
    const server = useServer(runtime(name));

    it('answers a create refused before its body, still owed a 100, with Connection: close, and closes', async () => {
      // No token: refused before the body is asked for, so no 100; the client may yet send the body uninvited.
      const head = 'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 22\r\n\r\n';
      const result = await rawExchange(server().baseUrl, [head], 8_000);
      const [response, more] = parseResponses(result.received);
      expect({ status: response?.status, connection: response?.headers['connection'], more }).toEqual({ status: 401, connection: 'close', more: undefined });
      expect(result.closed).toBe(true);
    });
  });

  describe.concurrent.each(['Node 22', 'Node 24', 'Node 26', 'Deno', 'workerd'])('%s standalone server: a request that asks to upgrade', (name) => {
    const server = useServer(runtime(name));

    it('answers it with Connection: close and closes at once, the create pipelined behind it unread and unstored', async () => {
      // node:http reads nothing more on a connection once a request asked to upgrade; it used to keep it open,
      // saying keep-alive, until its 5 s keep-alive timeout, the second create never answered.
      const first = '{"id":8301,"name":"upgrade"}';
      const second = '{"id":8302,"name":"behind"}';
      const result = await rawExchange(
        server().baseUrl,
        [head(first.length, 'Connection: Upgrade\r\nUpgrade: foo\r\n') + first + head(second.length) + second],
        8_000,
      );
      const answers = parseResponses(result.received);
      expect(answers.map(({ status, headers }) => [status, headers['connection']])).toEqual([[200, 'close']]);
      expect({ closed: result.closed, soon: result.elapsedMs < 4_000 }).toEqual({ closed: true, soon: true });
      // Never stored: other content for its id is stored now, not a conflict (409).
      const other = '{"id":8302,"name":"other"}';
      const again = await rawExchange(server().baseUrl, [head(other.length, 'Connection: close\r\n') + other], 8_000);
      expect(parseResponses(again.received).map(({ status }) => status)).toEqual([200]);
    });
  });

  describe.each(['Bun', 'Deno'])('%s request deadline (withRequestDeadline, 2 s here, 30 s in production)', (name) => {
    let server: SpawnedServer;
    beforeAll(async () => {
      const binary = runtime(name).binary;
      const script = join(here, 'hardening-deadline-server.ts');
      const args = name === 'Bun' ? [script] : ['run', '--allow-net', '--allow-env=HARDENING_DEADLINE_MS,PLANT_STORE_TOKENS', '--allow-read', script];
      server = await spawnListening(`${name} (deadline)`, binary, args, { PLANT_STORE_TOKENS: CONFORMANCE_TOKEN, HARDENING_DEADLINE_MS: '2000' }, here);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('answers a body still arriving at the deadline with 408 (1402) and closes', async () => {
      const { length, steps } = trickled(7002, 6);
      const result = await rawExchange(server.baseUrl, [head(length), ...steps], 8_000);
      const [response] = parseResponses(result.received);
      expect({ status: response?.status, connection: response?.headers['connection'], body: response?.body }).toEqual({
        status: 408,
        connection: 'close',
        body: TIMED_OUT,
      });
      // Bun closes at once; Deno only once the client stops sending (6 s here), and never cuts it itself.
      // The bound only tells the two apart: the 2 s deadline plus 3.5 s for a loaded machine.
      expect(result.closed).toBe(true);
      if (name === 'Bun') expect(result.elapsedMs).toBeLessThan(5_500);
      // The body that came in whole after its 408 (on Deno) stored nothing: the id is still free.
      const again = await fetch(`${server.baseUrl}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
        body: '{"id":7002,"name":"another"}',
      });
      expect({ status: again.status, body: await again.text() }).toEqual({ status: 200, body: '{"name":"another"}' });
    });

    it('answers a chunked body that stops with 408 (1402)', async () => {
      const chunkedHead = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${CONFORMANCE_TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const result = await rawExchange(server.baseUrl, [chunkedHead, '5\r\n{"id"\r\n'], 6_000, { answers: 1 });
      const [response] = parseResponses(result.received);
      expect({ status: response?.status, body: response?.body }).toEqual({ status: 408, body: TIMED_OUT });
    });

    it('leaves a complete request alone', async () => {
      const body = '{"id":7003,"name":"quick"}';
      // Ended by the second answer: 2.6 to 3.3 s in today's runs of the test command; the 10 s are a limit for a loaded
      // machine, not a bound on the deadline's work (one run had only the first answer within the 4 s limit before).
      const result = await rawExchange(
        server.baseUrl,
        [head(body.length) + body, { pauseMs: 2_500 }, 'GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'],
        10_000,
        {
          answers: 2,
        },
      );
      expect(parseResponses(result.received).map((response) => response.status)).toEqual([200, 200]);
    });
  });

  // Deno serves with its node:http, and workerd behind the launcher's, as Node does: the same deadlines, cut the same way.
  describe.concurrent.each(['Node 22', 'Node 24', 'Node 26', 'Deno', 'workerd'])(
    '%s standalone server against slow and idle clients (10 s headers, 5 s keep-alive)',
    (name) => {
      const server = useServer(runtime(name));
      const trickle = (text: string) => [...text].flatMap((char) => [char, { pauseMs: 1_000 }]);

      it(
        'answers 200 connections trickling headers a byte a second with 408 (1402) at the headers deadline, and serves others meanwhile',
        { timeout: 25_000 },
        async () => {
          const slow = Array.from({ length: 200 }, () => rawExchange(server().baseUrl, trickle(head(20)), 16_000));
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          const quick = await rawExchange(server().baseUrl, ['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], 5_000);
          expect(parseResponses(quick.received)[0]?.status).toBe(200);
          const results = await Promise.all(slow);
          const answers = results.map((result) => {
            const [response] = parseResponses(result.received);
            // Never before the 10 s deadline; the 16 s watch is what tells a cut from none (the headers would take 130 s).
            return { closed: result.closed, status: response?.status, body: response?.body, inTime: result.elapsedMs >= 9_500 };
          });
          expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
            new Set([JSON.stringify({ closed: true, status: 408, body: TIMED_OUT, inTime: true })]),
          );
        },
      );

      it('closes a connection left idle after its answer once the keep-alive timeout passed', { timeout: 25_000 }, async () => {
        await expectClosedWhenIdle(server().baseUrl, 4_500, 20_000);
      });
    },
  );

  // Bun has no headers timeout: it closes a connection whose headers do not come within about 10 s
  // itself, without an answer; idle connections are closed by the launcher's idleTimeout (35 s).
  // Bun 1.4.5 arms both on a 4 s wheel that ticks on a grid of its own, so a timeout of N s fires
  // anywhere in (4·(⌈N/4⌉−1), 4·⌈N/4⌉] s: 10 s in (8, 12], 35 s in (32, 36] (oven-sh/bun#33610,
  // open, makes N a floor). The lower bounds below are those, less half a second for the clocks; when
  // that change ships, raise them to 10 s and 35 s.
  describe.concurrent('Bun standalone server against slow and idle clients', () => {
    let server: SpawnedServer;
    beforeAll(async () => {
      server = await spawnServer(runtime('Bun'), 'working');
    });
    afterAll(async () => {
      await server?.close();
    });

    it('closes a connection trickling its headers a byte a second after about 10 s', { timeout: 20_000 }, async () => {
      const result = await rawExchange(
        server.baseUrl,
        [...head(20)].flatMap((char) => [char, { pauseMs: 1_000 }]),
        16_000,
      );
      // Closed before the 16 s watch: its headers would take 130 s.
      expect(result.closed).toBe(true);
      expect(result.elapsedMs).toBeGreaterThanOrEqual(7_500);
    });

    it("closes a connection left idle after its answer after 35 s (the launcher's idleTimeout)", { timeout: 60_000 }, async () => {
      await expectClosedWhenIdle(server.baseUrl, 31_500, 50_000);
    });
  });
});

/** The status of `GET /openapi.json` on a fresh connection, or 0 when none came within `timeoutMs`. */
async function documentStatus(baseUrl: string, timeoutMs: number): Promise<number> {
  const result = await rawExchange(baseUrl, ['GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], timeoutMs);
  return parseResponses(result.received)[0]?.status ?? 0;
}

interface Flood {
  readonly label: string;
  readonly target: ReturnType<typeof runtime>;
  readonly env: Record<string, string>;
  /** Connections opened at once, past the 256 descriptors each process has. */
  readonly connections: number;
  /** Wait before the flood (processes still starting). */
  readonly settleMs: number;
  /** Whether the server serves again; asked every `pollMs` for at most `withinMs`. */
  readonly serving: (baseUrl: string) => Promise<boolean>;
  readonly pollMs: number;
  readonly withinMs: number;
}

/**
 * Starts the production command under a 256-descriptor limit, opens more
 * connections than that, and checks that the server survives the flood and,
 * once the connections are freed, serves again.
 */
async function expectServingAfterFlood({ label, target, env, connections, settleMs, serving, pollMs, withinMs }: Flood): Promise<void> {
  const data = mkdtempSync(join(tmpdir(), 'plant-store-hardening-'));
  // prlimit's limit applies to the children (PLANT_STORE_WORKERS) too.
  const server = await spawnListening(label, 'prlimit', ['--nofile=256:256', target.binary, ...target.production], env, data);
  const { port } = new URL(server.baseUrl);
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
  const sockets = Array.from({ length: connections }, () => connect(Number(port), '127.0.0.1').on('error', () => {}));
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(server.child.exitCode).toBeNull();
    for (const socket of sockets) socket.destroy();
    // Accepting again takes a moment after the descriptors are freed.
    let recovered = false;
    for (let waited = 0; waited < withinMs && !recovered; waited += pollMs) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      recovered = await serving(server.baseUrl);
    }
    expect(recovered).toBe(true);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/Too many open files[\s\S]*(panicked|Uncaught)/);
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.close();
    rmSync(data, { recursive: true, force: true });
  }
}

// workerd's case is in hardening-workerd.test.ts. Side by side: each server and its flood are its own, and most of
// each test is waiting (for the flood to be held, for the listener to be noticed stopped).
describe.concurrent('when descriptors run out', () => {
  describe.concurrent.each(['Node 22', 'Node 24', 'Node 26', 'Bun', 'Deno'])('%s, one process', (name) => {
    it('keeps running and serving after one client opens more connections than it has descriptors', { timeout: 20_000 }, async () => {
      await expectServingAfterFlood({
        label: `${name} (256 descriptors)`,
        target: runtime(name),
        env: { PLANT_STORE_TOKENS: CONFORMANCE_TOKEN, PLANT_STORE_ACCESS_LOG: 'off' },
        connections: 400,
        settleMs: 0,
        serving: async (baseUrl) => (await documentStatus(baseUrl, 2_000)) === 200,
        pollMs: 250,
        withinMs: 5_000,
      });
    });
  });

  describe.concurrent.each(['Node 22', 'Bun', 'Deno'])('%s with PLANT_STORE_WORKERS=2', (name) => {
    it('every process accepts again once the descriptors are freed', { timeout: 45_000 }, async () => {
      await expectServingAfterFlood({
        label: `${name} (2 processes, 256 descriptors each)`,
        target: withWorkers(runtime(name)),
        env: { PLANT_STORE_TOKENS: CONFORMANCE_TOKEN, PLANT_STORE_ACCESS_LOG: 'off', PLANT_STORE_WORKERS: '2' },
        connections: 800,
        // Enough for the second process to be up before the flood.
        settleMs: 1_000,
        // Twenty fresh connections answered in a row: with a process that no longer accepts,
        // the kernel would hand it about half of them. On Deno a stopped listener is noticed
        // after 15 s without a connection.
        serving: async (baseUrl) => {
          for (let i = 0; i < 20; i++) if ((await documentStatus(baseUrl, 1_000)) !== 200) return false;
          return true;
        },
        pollMs: 500,
        withinMs: 30_000,
      });
    });
  });
});

describe('Deno standalone under load', () => {
  it('does not take a busy accept loop for a stopped one: the listener is not reopened during 8 s of keep-alive load', { timeout: 30_000 }, async () => {
    const server = await spawnServer(runtime('Deno'), 'working', { PLANT_STORE_DATABASE_URL: 'memory:' });
    const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
    const load = startKeepAliveLoad({ baseUrl: server.baseUrl, clients: 64, headers, body: (id) => `{"id":${id},"name":"Fern"}` });
    try {
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      expect(server.output()).not.toContain('stopped accepting');
    } finally {
      // The clients stop at the first answer other than 200, which the drain gives them.
      load.winding();
      await server.close();
    }
    const outcomes = await load.finished;
    expect(outcomes.filter((outcome) => outcome.status === 200).length).toBeGreaterThan(1_000);
  });
});
