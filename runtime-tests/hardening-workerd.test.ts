import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFORMANCE_TOKEN, parseResponses, rawExchange, send } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtime, spawnServer, type SpawnedServer } from './runtimes.ts';
import { workerdOutlivesKilledParent } from './support/killed-parent.ts';
import { childPids, commandOf } from './support/process-memory.ts';

// The standalone workerd server, spoken to over raw sockets: its node:http
// front refuses the framing workerd's own HTTP server would mishandle, closes
// connections as asked, and keeps serving, with its plants, when workerd
// itself goes down.

const linux = existsSync('/proc/self/stat');
/** util-linux's `prlimit`, to lower workerd's file descriptor limit, where there is one. */
const prlimit = ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path));
/** util-linux's `setpriv`, through which the front runs workerd so that workerd ends with it. */
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

const data = mkdtempSync(join(tmpdir(), 'plant-store-hardening-workerd-'));
let server: SpawnedServer;
beforeAll(async () => {
  server = await spawnServer(runtime('workerd'), 'working', {}, data);
});
afterAll(async () => {
  await server?.close();
  rmSync(data, { recursive: true, force: true });
});

const AUTH = `Authorization: Bearer ${CONFORMANCE_TOKEN}\r\n`;
let nextId = 7_000_000;
const plant = (id: number, name = 'plant') => `{"id":${id},"name":"${name}"}`;
/** A complete create, as bytes. */
const create = (id: number, name = 'plant', extra = '') =>
  `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\n${extra}Content-Length: ${plant(id, name).length}\r\n\r\n${plant(id, name)}`;

/** Creates `id` on a connection of its own and answers the status and body, or 0 and why none came. */
async function createOnce(id: number, name = 'plant'): Promise<[number, string]> {
  const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
  return send(server.baseUrl, { path: '/plants', headers, body: plant(id, name) }).then(
    (response) => [response.status, response.body],
    (error: unknown) => [0, String(error)],
  );
}

/** Bytes workerd's own HTTP server would answer with its plain-text 500 (or, for CL+TE, run what follows): the front refuses them as Node does. */
const REFUSED_BY_THE_FRONT: Record<string, string> = {
  'two different Content-Length headers': `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`,
  'Content-Length: +5': `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: +5\r\n\r\nhello`,
  'Content-Length: 0x10': `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: 0x10\r\n\r\nhello`,
  'Transfer-Encoding: gzip': `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Transfer-Encoding: gzip\r\n\r\nhello`,
  'Transfer-Encoding: xchunked': `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Transfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
  'Transfer-Encoding: chunked, identity': `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Transfer-Encoding: chunked, identity\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
};
const MALFORMED = '{"error":1005,"message":"not a valid HTTP/1.1 request"}';

describe('the standalone workerd server over raw sockets', () => {
  it('serves the Worker through the front only: no miniflare entry Worker compressing answers, serving /cdn-cgi or obeying MF- headers', async () => {
    const { received } = await rawExchange(
      server.baseUrl,
      [
        create(++nextId, 'plant', 'Accept-Encoding: gzip, br\r\n'),
        'GET /cdn-cgi/handler/scheduled HTTP/1.1\r\nHost: localhost\r\n\r\n',
        'GET /openapi.jsonx HTTP/1.1\r\nHost: x\r\nMF-Original-URL: http://x/openapi.json\r\nMF-Route-Override: none\r\n\r\n',
        // miniflare makes workerd's sockets read this header as the request's `cf` object; the front drops it.
        'GET /openapi.jsonx HTTP/1.1\r\nHost: x\r\nMF-CF-Blob: {bad\r\n\r\n',
      ],
      1_500,
    );
    const responses = parseResponses(received);
    expect(responses.map(({ status, body }) => [status, body])).toEqual([
      [200, '{"name":"plant"}'],
      [404, '{"error":1200,"message":"no such route"}'],
      [404, '{"error":1200,"message":"no such route"}'],
      [404, '{"error":1200,"message":"no such route"}'],
    ]);
    expect(responses[0]!.headers['content-encoding']).toBeUndefined();
  });

  it.each(['Content-Length first', 'Transfer-Encoding first'])(
    'refuses Content-Length with Transfer-Encoding (%s) with 400 (1005) and closes the connection: the create hidden behind it never runs',
    async (order) => {
      const id = ++nextId;
      const framing =
        order === 'Content-Length first' ? 'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n' : 'Transfer-Encoding: chunked\r\nContent-Length: 5\r\n';
      const smuggling = `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\n${framing}\r\n0\r\n\r\n${create(id, 'smuggled')}`;
      const result = await rawExchange(server.baseUrl, [smuggling], 5_000);
      expect(result.closed).toBe(true);
      const responses = parseResponses(result.received);
      expect(responses.map(({ status, body }) => [status, body])).toEqual([[400, MALFORMED]]);
      // Not stored: another name for the same id is a first create, not a conflict.
      expect(await createOnce(id, 'honest')).toEqual([200, '{"name":"honest"}']);
    },
  );

  it.each(Object.keys(REFUSED_BY_THE_FRONT))('answers %s with 400 (1005), the Error body, and closes the connection, then keeps serving', async (name) => {
    const result = await rawExchange(server.baseUrl, [REFUSED_BY_THE_FRONT[name]!], 5_000);
    expect(result.closed).toBe(true);
    expect(parseResponses(result.received).map(({ status, body }) => [status, body])).toEqual([[400, MALFORMED]]);
    expect(await createOnce(++nextId)).toEqual([200, '{"name":"plant"}']);
  });

  it("closes the connection after a client's Connection: close and after an HTTP/1.0 request", async () => {
    for (const version of ['HTTP/1.1\r\nConnection: close', 'HTTP/1.0']) {
      const result = await rawExchange(server.baseUrl, [`GET /openapi.json ${version}\r\nHost: x\r\n\r\n`], 3_000);
      expect(parseResponses(result.received).map(({ status }) => status)).toEqual([200]);
      expect(result.closed, version).toBe(true);
    }
  });

  it('answers an oversized chunked upload that keeps sending with its 413, not a reset', async () => {
    const chunk = `${(64 * 1024).toString(16)}\r\n${' '.repeat(64 * 1024)}\r\n`;
    const head = `POST /plants HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const result = await rawExchange(server.baseUrl, [head, ...Array.from({ length: 48 }, () => chunk), '0\r\n\r\n'], 8_000);
    expect(parseResponses(result.received).map(({ status, body }) => [status, body])).toEqual([
      [413, '{"error":1400,"message":"body: larger than the limit of 1048576 bytes"}'],
    ]);
  });

  it.runIf(linux)(
    'keeps serving on the same port, with its plants, when workerd is killed: it is started again and a line says so',
    { timeout: 90_000 },
    async () => {
      const id = ++nextId;
      expect(await createOnce(id, 'survivor')).toEqual([200, '{"name":"survivor"}']);
      const before = workerdPid();
      process.kill(before, 'SIGKILL');
      // miniflare starts workerd again within a second here; on a loaded machine that start has failed (twice in four runs
      // at a load average of 5), and the front then starts it itself after 1, 2, 4, 8 s (the next test): either says so.
      await expect
        .poll(() => /plant-store: workerd (stopped unexpectedly and )?was started again on the same port; plants in D1 are kept/.test(server.output()), {
          timeout: 45_000,
        })
        .toBe(true);
      await expect.poll(() => createOnce(id, 'survivor'), { timeout: 10_000 }).toEqual([200, '{"name":"survivor"}']);
      expect(workerdPid()).not.toBe(before);
      const [status, body] = await createOnce(id, 'other');
      expect([status, JSON.parse(body).error]).toEqual([409, 1300]);
    },
  );

  it.runIf(linux)('starts workerd again when the one miniflare started after a crash dies as it starts, and says so', async () => {
    const id = ++nextId;
    expect(await createOnce(id, 'twice')).toEqual([200, '{"name":"twice"}']);
    const first = workerdPid();
    process.kill(first, 'SIGKILL');
    // The workerd miniflare starts in its place, killed as soon as it is there: miniflare gives up on a restart that fails.
    let second: number | undefined;
    await expect
      .poll(
        () => {
          const [pid] = childPids(server.child.pid!).filter((child) => child !== first && commandOf(child) === 'workerd');
          return (second = pid);
        },
        { timeout: 10_000, interval: 5 },
      )
      .toBeDefined();
    process.kill(second!, 'SIGKILL');
    await expect
      .poll(() => server.output(), { timeout: 30_000 })
      .toContain('plant-store: workerd did not start again after it stopped unexpectedly; trying again in');
    await expect.poll(() => createOnce(id, 'twice'), { timeout: 30_000 }).toEqual([200, '{"name":"twice"}']);
    expect(server.output()).toContain('plant-store: workerd was started again on the same port; plants in D1 are kept');
    expect(workerdPid()).not.toBe(second);
  });

  it.runIf(linux)(
    'answers 503 (1501) to what a stopped workerd (SIGSTOP) holds once the 15 s answer timeout passes, and serves again, with its plants, once it runs',
    { timeout: 60_000 },
    async () => {
      const id = ++nextId;
      expect(await createOnce(id, 'before')).toEqual([200, '{"name":"before"}']);
      const pid = workerdPid();
      const waiting = ++nextId;
      process.kill(pid, 'SIGSTOP');
      try {
        const started = performance.now();
        const [created, ready] = await Promise.all([createOnce(waiting, 'waiting'), send(server.baseUrl, { method: 'GET', path: '/readyz' })]);
        const waited = performance.now() - started;
        expect([created[0], JSON.parse(created[1]).error]).toEqual([503, 1501]);
        expect([ready.status, JSON.parse(ready.body).error]).toEqual([503, 1501]);
        // Not before the timeout: a workerd that is only slow (its store's own 5 s bound) is waited for.
        expect(waited).toBeGreaterThanOrEqual(14_000);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      await expect.poll(() => createOnce(id, 'before'), { timeout: 10_000 }).toEqual([200, '{"name":"before"}']);
      // The create answered 503 may have been stored meanwhile: sent again, it is 200 either way.
      expect(await createOnce(waiting, 'waiting')).toEqual([200, '{"name":"waiting"}']);
      expect(workerdPid()).toBe(pid);
    },
  );

  it.runIf(linux && setpriv)(
    'ends workerd when its front is killed (SIGKILL), which miniflare alone would leave running (workerd-outlives-front)',
    async () => {
      const ranOn = await workerdOutlivesKilledParent(runtime('workerd').binary, runtime('workerd').production, {
        cwd: data,
        env: { PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: CONFORMANCE_TOKEN, PLANT_STORE_DATABASE_URL: 'memory:', TMPDIR: data },
        ready: /listening on/,
      });
      expect(ranOn).toBe(false);
    },
  );

  it.runIf(linux && prlimit)('keeps serving, with its plants, when one client opens more connections than the server has descriptors', async () => {
    const id = ++nextId;
    expect(await createOnce(id, 'kept')).toEqual([200, '{"name":"kept"}']);
    const before = workerdPid();
    // The front (this Node process) runs out; workerd only ever sees the front's few connections.
    execFileSync(prlimit!, [`--pid=${server.child.pid!}`, '--nofile=128:128']);
    const { port } = new URL(server.baseUrl);
    const sockets = Array.from({ length: 300 }, () => connect(Number(port), '127.0.0.1').on('error', () => {}));
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(server.child.exitCode).toBeNull();
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    await expect.poll(() => createOnce(id, 'kept'), { timeout: 10_000 }).toEqual([200, '{"name":"kept"}']);
    expect(workerdPid()).toBe(before);
  });
});

/** The workerd process the launcher runs. */
function workerdPid(): number {
  const [pid] = childPids(server.child.pid!).filter((child) => commandOf(child) === 'workerd');
  if (pid === undefined) throw new Error(`no workerd process under ${server.child.pid}`);
  return pid;
}
