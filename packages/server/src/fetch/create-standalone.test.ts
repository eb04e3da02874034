// Runs under vitest on Node.
import { staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it } from 'vitest';
import { withRequestDeadline } from '../bun/with-request-deadline.ts';
import { createDrainingFetch } from './create-draining-fetch.ts';
import { createStandalone } from './create-standalone.ts';

const build = () => ({ store: createMemoryStore(), authenticate: staticTokens(['t']) });
const HEADERS = { authorization: 'Bearer t', 'content-type': 'application/json' };

/** The Bun launcher's stack, in process: access log, request deadline, drain. */
function launcherStack(env: Record<string, string>, lines: string[], timeoutMs = 30_000) {
  const { config, fetch } = createStandalone({ PLANT_STORE_TOKENS: 't', ...env }, (line) => lines.push(line), build);
  const guarded = withRequestDeadline(fetch, { timeoutMs, checkEveryMs: 20 });
  const draining = createDrainingFetch(guarded, { whenIdle: guarded.whenIdle });
  return { config, draining, fetch: draining.fetch };
}

describe('createStandalone', () => {
  it('turns on request ids, health, the docs page and CORS from the settings', async () => {
    const lines: string[] = [];
    const { fetch } = launcherStack({ PLANT_STORE_CORS_ORIGINS: 'https://app.example.com' }, lines);
    const health = await fetch(new Request('http://x/healthz', { headers: { 'x-request-id': 'abc' } }));
    expect([health.status, health.headers.get('x-request-id')]).toEqual([200, 'abc']);
    const docs = await fetch(new Request('http://x/docs'));
    expect([docs.status, docs.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const preflight = await fetch(
      new Request('http://x/plants', { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' } }),
    );
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([200, 'https://app.example.com']);
    const withoutDocs = launcherStack({ PLANT_STORE_DOCS: 'off' }, lines);
    expect((await withoutDocs.fetch(new Request('http://x/docs'))).status).toBe(404);
    // Without the variable, CORS is off: a preflight is just an OPTIONS, which /plants does not allow.
    expect(
      (
        await withoutDocs.fetch(
          new Request('http://x/plants', { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' } }),
        )
      ).status,
    ).toBe(405);
  });

  it('logs the 408 of a body that misses the request deadline as JSON, with the id the answer carries', async () => {
    const lines: string[] = [];
    const { fetch } = launcherStack({ PLANT_STORE_LOG_FORMAT: 'json' }, lines, 200);
    const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"id":1,')) });
    const response = await fetch(new Request('http://x/plants?secret=1', { method: 'POST', headers: HEADERS, body, duplex: 'half' } as RequestInit));
    expect(response.status).toBe(408);
    expect(JSON.parse(await response.text())).toMatchObject({ error: 1402 });
    const requestId = response.headers.get('x-request-id');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: expect.any(String), level: 'info', requestId, traceId: null, method: 'POST', path: '/plants', status: 408, ms: expect.any(Number) },
    ]);
  });

  it('logs the 503 of a request that arrives while draining, and answers /readyz 503 then, /healthz 200', async () => {
    const lines: string[] = [];
    const { fetch, draining } = launcherStack({ PLANT_STORE_LOG_FORMAT: 'json' }, lines);
    void draining.drain(50, 1_000);
    const ready = await fetch(new Request('http://x/readyz'));
    const alive = await fetch(new Request('http://x/healthz'));
    expect([ready.status, ready.headers.get('connection'), alive.status]).toEqual([503, 'close', 200]);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>).map((line) => [line['path'], line['status']])).toEqual([
      ['/readyz', 503],
      ['/healthz', 200],
    ]);
  });

  it('drains only once the requests in flight are answered, as the request deadline knows them', async () => {
    const { fetch, draining } = launcherStack({}, []);
    let sendRest!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":1,'));
        sendRest = () => {
          controller.enqueue(new TextEncoder().encode('"name":"Fern"}'));
          controller.close();
        };
      },
    });
    const answer = fetch(new Request('http://x/plants', { method: 'POST', headers: HEADERS, body, duplex: 'half' } as RequestInit));
    let drained = false;
    const drain = draining.drain(0, 5_000).then(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(drained).toBe(false);
    sendRest();
    // Accepted before the drain began, so it is served, not told to go elsewhere.
    expect((await answer).status).toBe(200);
    await drain;
    expect(drained).toBe(true);
  });

  it('while draining, holds an answer that leaves a body unread until the body is dropped, since the connection closes after it', async () => {
    const { fetch, draining } = launcherStack({}, []);
    void draining.drain(0, 5_000);
    let sendRest!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":1,'));
        sendRest = () => controller.close();
      },
    });
    let answered = false;
    // Answered 503 without reading the body, which is then dropped.
    const answer = fetch(new Request('http://x/plants', { method: 'POST', body, duplex: 'half' } as RequestInit)).then((response) => {
      answered = true;
      return response;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    sendRest();
    const response = await answer;
    expect([response.status, response.headers.get('connection')]).toEqual([503, 'close']);
  });
});
