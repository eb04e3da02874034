// Runs under vitest on Node.
import { staticTokens } from '@plant-store/core';
import { send } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it } from 'vitest';
import { serve } from '../src/index.ts';

describe('answers before the body is in, to a client that asked for Connection: close', () => {
  it('delivers every 401 and 413 instead of resetting the connection under the client', async () => {
    const running = await serve({ store: createMemoryStore(), authenticate: staticTokens(['good']), port: 0, accessLog: false });
    const closing = { connection: 'close' };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const unauthenticated = await send(running.url, {
        path: '/plants',
        headers: { ...closing, authorization: 'Bearer bad', 'content-type': 'text/plain' },
        body: 'x'.repeat(4 << 20),
      });
      const tooLarge = await send(running.url, {
        path: '/plants',
        headers: { ...closing, authorization: 'Bearer good', 'content-type': 'application/json' },
        chunked: true,
        body: Array.from({ length: 128 }, () => 'x'.repeat(64 << 10)),
      });
      statuses.push(unauthenticated.status, tooLarge.status);
      expect(unauthenticated.headers['connection']).toBe('close');
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, () => [401, 413]).flat());
    await running.close();
  });
});
