// Runs in vitest on Node 24: /metrics closes its HTTP/1.1 connection on every standalone server (docs/contract.md,
// "Metrics and traces"), workerd's too, whose own server drops the Worker's `Connection: close` before its front.
import { CONFORMANCE_TOKEN, parseResponses, rawExchange } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runtime, spawnServer } from './runtimes.ts';

describe.concurrent('GET /metrics over a kept-alive connection', () => {
  it.each(['Node 24', 'Bun', 'Deno', 'workerd'])('%s answers it with Connection: close, and answers nothing pipelined behind it', async (name) => {
    const server = await spawnServer(runtime(name), 'working');
    try {
      const result = await rawExchange(
        server.baseUrl,
        [`GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${CONFORMANCE_TOKEN}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`],
        5_000,
      );
      const answers = parseResponses(result.received);
      expect(answers.map((answer) => [answer.status, answer.headers['connection']])).toEqual([[200, 'close']]);
      expect(result.closed).toBe(true);
    } finally {
      await server.close();
    }
  });
});
