// Runs under vitest on Node: overload protection and the per-token rate limit of the standalone
// servers, on every runtime (a short check each). The sustained overload is latency/overload-run.test.ts.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN, send, type RawResponse } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runtime, runToExit, spawnServer } from './runtimes.ts';
import { until } from './support/until.ts';

const OTHER_TOKEN = 'other-token_0123456789abcdef';
const create = (token: string, id: number) => ({
  path: '/plants',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: `{"id":${id},"name":"p${id}"}`,
});

function expectRefusal(response: RawResponse, status: number, code: number): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json');
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(JSON.parse(response.body)).toMatchObject({ error: code, message: expect.any(String) });
}

describe.concurrent('the overload bound and the rate limit, per runtime', () => {
  for (const name of ['Node 22', 'Node 24', 'Node 26', 'Bun', 'Deno', 'workerd']) {
    it(`${name}: a request past the in-flight bound gets 503 (1503) with Retry-After at once, /healthz 200, and a token past its rate 429 (1404)`, async () => {
      const server = await spawnServer(runtime(name), 'working', {
        PLANT_STORE_TOKENS: `${CONFORMANCE_TOKEN},${OTHER_TOKEN}`,
        PLANT_STORE_MAX_IN_FLIGHT: '1',
        PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS: '0',
        PLANT_STORE_RATE_LIMIT: '3/86400',
      });
      try {
        const { baseUrl } = server;
        const readyz = () => send(baseUrl, { method: 'GET', path: '/readyz' });
        await until(async () => (await readyz()).status === 200, 10_000, `${name}: /readyz 200`);
        expect((await send(baseUrl, create(OTHER_TOKEN, 30))).status).toBe(200);
        // A create whose body stops halfway is in flight until the rest comes: the bound is reached.
        const held = { ...create(CONFORMANCE_TOKEN, 1) };
        const during: RawResponse[] = [];
        const answer = await send(baseUrl, {
          ...held,
          headers: { ...held.headers, 'content-length': String(held.body.length) },
          body: [
            held.body.slice(0, 8),
            async () => {
              // /readyz is refused like any other route once the bound is reached: it says busy.
              await until(async () => (await readyz()).status === 503, 10_000, `${name}: /readyz busy`);
              during.push(await readyz());
              during.push(await send(baseUrl, create(OTHER_TOKEN, 2)));
              during.push(await send(baseUrl, { method: 'GET', path: '/healthz' }));
              during.push(await send(baseUrl, { method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` } }));
            },
            held.body.slice(8),
          ],
        });
        expectRefusal(during[0]!, 503, 1503);
        expectRefusal(during[1]!, 503, 1503);
        expect(during[2]!.status).toBe(200);
        // The scrape is never refused, and counts every create of the server (on workerd, the Worker's).
        expect(during[3]!.status).toBe(200);
        expect(during[3]!.body).toContain('\nplant_store_creates_total{outcome="inserted"} 1\n');
        // In flight: the held create, its body still arriving, and the scrape itself.
        expect(during[3]!.body).toContain('\nhttp_server_active_requests 2\n');
        // The admitted request finishes, and new ones are admitted again.
        expect(answer.status).toBe(200);
        await until(async () => (await readyz()).status === 200, 10_000, `${name}: /readyz ready again`);
        // Alone, every route is answered, what the workerd front answers itself (the docs page, other methods) too.
        expect((await send(baseUrl, { method: 'GET', path: '/docs' })).status).toBe(200);
        expect((await send(baseUrl, { method: 'PUT', path: '/plants' })).status).toBe(405);

        // The rate limit: 3 creates per token per day (a window boundary crossed midway gives one more try).
        let limited: RawResponse | undefined;
        for (let id = 3; id < 10 && limited === undefined; id++) {
          const response = await send(baseUrl, create(CONFORMANCE_TOKEN, id));
          if (response.status === 429) limited = response;
          else expect(response.status).toBe(200);
        }
        expectRefusal(limited!, 429, 1404);
        expect(limited!.headers['ratelimit-policy']).toBe('"per-token";q=3;w=86400');
        expect(limited!.headers['ratelimit']).toMatch(/^"per-token";r=0;t=\d+$/);
        expect(limited!.headers['ratelimit']).toBe(`"per-token";r=0;t=${limited!.headers['retry-after']}`);
        expect((await send(baseUrl, create(OTHER_TOKEN, 20))).status).toBe(200);
      } finally {
        await server.close();
      }
    }, 60_000);
  }
});

describe.concurrent("the event-loop bound on each runtime's own timers and clock", () => {
  const script = fileURLToPath(new URL('fixtures/loop-delay-gate.mjs', import.meta.url));
  for (const name of ['Node 24', 'Bun', 'Deno']) {
    it(`${name}: a loop held past the bound refuses the next request, and the sampler stops once idle`, async () => {
      const target = runtime(name);
      const args = name === 'Deno' ? ['run', '--allow-read', script] : [script];
      const { code, stdout, stderr } = await runToExit(target.binary, args, { cwd: dirname(script), killAfterMs: 20_000 });
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toEqual({ admittedBefore: true, refusedStatus: 503, delayMs: 0, admittedAfter: true });
    });
  }
});
