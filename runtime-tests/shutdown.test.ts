import { CONFORMANCE_TOKEN, send, startKeepAliveLoad } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runtime, RUNTIMES, spawnServer } from './runtimes.ts';
import { commandOf, isRunning, processTree } from './support/process-memory.ts';

/** A pause between the parts of a request the tests send: where a request is in flight, no event of the server's says so. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Every standalone server drains; on workerd, its node:http front does.
describe('graceful shutdown on SIGTERM', () => {
  it.each(RUNTIMES.map((runtime) => [runtime.name, runtime] as const))('%s finishes the request in flight, then exits 0', async (name, runtime) => {
    const server = await spawnServer(runtime, 'working', { PLANT_STORE_ACCESS_LOG: 'on' });
    // Half the body, then the signal, then the rest: the request is in flight throughout. The rest comes after the
    // drain's grace (500 ms), so that the answer is the last thing the process does.
    const response = await send(server.baseUrl, {
      path: '/plants',
      headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
      body: [
        '{"id":42,"na',
        async () => {
          await sleep(200);
          server.child.kill('SIGTERM');
          await sleep(1_000);
        },
        'me":"drained"}',
      ],
    });
    const answered = { status: response.status, body: response.body };
    expect(answered).toEqual({ status: 200, body: '{"name":"drained"}' });
    // docs/contract.md, "Standalone runs": on Node, Deno and workerd the answer closes its connection (on workerd it was
    // kept, and the exit waited 5 s more for the keep-alive timeout); Bun closes it without saying so.
    if (name !== 'Bun') expect(response.headers['connection']).toBe('close');
    expect(await server.exited).toBe(0);
    // Logged before the exit (Bun's lines, gathered for a next turn, were lost to it).
    expect(server.output()).toMatch(/\nPOST \/plants 200 \d+\.\dms\n/);
  });

  it.concurrent.each(['Node 24', 'Bun', 'Deno', 'workerd'].map((name) => [name, runtime(name)] as const))(
    '%s cuts an upload still in flight when the drain times out, and exits 0 then, not at the 30 s request deadline',
    async (_name, runtime) => {
      const server = await spawnServer(runtime, 'working');
      let signalledAt = 0;
      let trickling = true;
      const upload = send(server.baseUrl, {
        path: '/plants',
        headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json', 'content-length': '40' },
        body: [
          '{"id":43,',
          async () => {
            // The head and the first part in: the request is in flight when the signal comes.
            await sleep(300);
            server.child.kill('SIGTERM');
            signalledAt = Date.now();
            // Never whole before the 10 s drain timeout: the rest waits until the server is gone.
            for (let waited = 0; trickling && waited < 25; waited++) await sleep(1_000);
          },
          '"name":"never whole"}',
        ],
      }).catch((error: unknown) => error);
      const code = await server.exited;
      trickling = false;
      const exitedAfterMs = Date.now() - signalledAt;
      await upload;
      expect(code).toBe(0);
      // The drain's 10 s timeout, and some slack for a loaded machine: far from the 30 s the request deadline would take.
      expect(exitedAfterMs).toBeGreaterThanOrEqual(9_000);
      expect(exitedAfterMs).toBeLessThan(20_000);
    },
    40_000,
  );

  it.each([
    ['Node 26', 'text'],
    ['Bun', 'text'],
    ['Deno', 'text'],
    ['Node 22', 'json'],
    ['Bun', 'json'],
    ['workerd', 'text'],
  ])('%s under load from 32 keep-alive clients (%s log): every request it took is answered and logged, then exit 0', async (name, format) => {
    const server = await spawnServer(runtime(name), 'working', { PLANT_STORE_ACCESS_LOG: 'on', PLANT_STORE_LOG_FORMAT: format });
    const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
    const load = startKeepAliveLoad({ baseUrl: server.baseUrl, clients: 32, headers, body: (id) => `{"id":${id},"name":"load"}` });
    await new Promise((resolve) => setTimeout(resolve, 500));
    load.winding();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    const outcomes = await load.finished;
    const ok = outcomes.filter((outcome) => outcome.status === 200).length;
    const refused = outcomes.filter((outcome) => outcome.status === 503);
    const errors = outcomes.filter((outcome) => outcome.error !== undefined).map((outcome) => outcome.error);
    const logged = server
      .output()
      .split('\n')
      .filter((line) => (format === 'json' ? /^\{.*"path":"\/plants","status":200,/ : / \/plants 200 /).test(line)).length;
    console.log(
      `${name} (${format} log): ${ok} × 200 (${logged} logged), ${refused.length} × 503, errors ${JSON.stringify(errors.reduce<Record<string, number>>((m, e) => ({ ...m, [e!]: (m[e!] ?? 0) + 1 }), {}))}`,
    );
    expect(code).toBe(0);
    expect(ok).toBeGreaterThan(50);
    // Every create the server carried out reached its client.
    expect(logged).toBe(ok);
    for (const response of refused) expect(response.connection).toBe('close');
    for (const error of errors) expect(error).toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
  });

  it.concurrent.each([
    ['SIGHUP', 129],
    ['SIGQUIT', 131],
    ['SIGUSR2', 140],
  ] as const)('the workerd front ended by %s (no TLS) stops workerd with it, exit %i', async (signal, code) => {
    const server = await spawnServer(runtime('workerd'), 'working');
    const workerd = processTree(server.child.pid!).filter((pid) => commandOf(pid).startsWith('workerd'));
    expect(workerd).toHaveLength(1);
    server.child.kill(signal);
    expect(await server.exited).toBe(code);
    // miniflare's exit hook ends workerd as the front exits: it is gone, not left running on its D1 directory.
    await expect.poll(() => isRunning(workerd[0]!), { timeout: 5_000 }).toBe(false);
  });
});
