// Runs under vitest on Node.
import { parseResponses, rawExchange, send } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { useTimedServer } from './support/use-timed-server.ts';

// Short timeouts configured for the test; the defaults are 10 s and 30 s. The trickled
// headers and body would take about 100 s and 22 s to arrive: a close before the 15 s
// watch is the timeout's, so only lower bounds are asserted (a loaded machine delays
// timers, never hastens them).
const HEADERS_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 4_000;
const HEAD = 'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n';

describe('slow clients', () => {
  const server = useTimedServer(HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS);

  const trickle = (text: string) => [...text].flatMap((char) => [char, { pauseMs: 1_000 }]);

  it('cuts off headers trickled a byte a second at the header timeout, with 408 (1402), and others are served meanwhile', async () => {
    const slow = rawExchange(server().url, trickle(HEAD), 15_000);
    const started = Date.now();
    const other = await send(server().url, {
      path: '/plants',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"id":1,"name":"n"}',
    });
    expect(other.status).toBe(200);
    // Served while the slow client holds its connection, not after its timeout.
    expect(Date.now() - started).toBeLessThan(HEADERS_TIMEOUT_MS - 500);
    const result = await slow;
    console.log(`trickled headers held the connection ${result.elapsedMs} ms`);
    expect(result.closed).toBe(true);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    const [answer] = parseResponses(result.received);
    expect(answer?.status).toBe(408);
    expect(JSON.parse(answer!.body)).toMatchObject({ error: 1402 });
  });

  it('cuts off a body trickled a byte a second at the request timeout, with 408, and stores nothing', async () => {
    const body = '{"id":2,"name":"slow"}';
    const slow = rawExchange(server().url, [`${HEAD}Content-Length: ${body.length}\r\n\r\n`, ...trickle(body)], 15_000);
    const others = await Promise.all(
      [3, 4, 5].map((id) =>
        send(server().url, { path: '/plants', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: `{"id":${id},"name":"n"}` }),
      ),
    );
    expect(others.map((response) => response.status)).toEqual([200, 200, 200]);
    const result = await slow;
    console.log(`trickled body held the connection ${result.elapsedMs} ms`);
    expect(result.closed).toBe(true);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    const answers = parseResponses(result.received);
    expect(answers.map((answer) => answer.status)).toEqual([408]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: 1402 });
    const replay = await send(server().url, {
      path: '/plants',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"id":2,"name":"other"}',
    });
    expect(replay.status).toBe(200);
  });
});
