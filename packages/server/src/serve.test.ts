import { Agent } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { conformanceOptions, describeHttpConformance, send } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it } from 'vitest';
import { serve } from './serve.ts';

describeHttpConformance({
  name: 'standalone Node server (serve)',
  unmatched: 'not-found',
  async start(scenario) {
    const running = await serve({ ...conformanceOptions(scenario, createMemoryStore()), onError: () => {}, port: 0, accessLog: false });
    return { baseUrl: running.url, close: running.close };
  },
});

describe('serve', () => {
  it('sets the header and request timeouts it is given, by default 10 s and 30 s', async () => {
    const options = { store: createMemoryStore(), authenticate: staticTokens(['t']), port: 0, accessLog: false as const };
    const defaults = await serve(options);
    expect([defaults.server.headersTimeout, defaults.server.requestTimeout]).toEqual([10_000, 30_000]);
    await defaults.close();
    const custom = await serve({ ...options, headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    expect([custom.server.headersTimeout, custom.server.requestTimeout]).toEqual([1_000, 2_000]);
    await custom.close();
  });

  it('close() ends idle keep-alive connections instead of waiting for them', async () => {
    const running = await serve({ store: createMemoryStore(), authenticate: staticTokens(['t']), port: 0, accessLog: false });
    const agent = new Agent({ keepAlive: true });
    const response = await send(running.url, { method: 'GET', path: '/plants', agent });
    expect(response.headers.connection).toBe('keep-alive');
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    agent.destroy();
  });

  it('hands each access-log line to the given function', async () => {
    const lines: string[] = [];
    const running = await serve({ store: createMemoryStore(), authenticate: staticTokens(['t']), port: 0, accessLog: (line) => lines.push(line) });
    await send(running.url, { path: '/plants', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"id":1,"name":"n"}' });
    await running.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^POST \/plants 200 \d+\.\dms$/);
  });
});
