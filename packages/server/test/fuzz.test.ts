// Runs under vitest on Node.
import { Agent } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { invalidCreate, send, validCreate } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../src/index.ts';

const RUNS = 10_000;
const TOKEN = 'fuzz-token';

/** A body mutated from a valid or near-valid one: bytes flipped, cut, doubled or spliced. */
const mutatedBody = fc
  .tuple(
    fc.oneof(
      validCreate().map((create) => create.body),
      invalidCreate().map((create) => create.body),
    ),
    fc.array(fc.tuple(fc.nat(), fc.nat(255), fc.constantFrom('flip', 'cut', 'insert', 'double', 'none')), { maxLength: 3 }),
  )
  .map(([body, mutations]) => {
    let bytes = Buffer.from(body);
    for (const [at, value, kind] of mutations) {
      const i = bytes.length === 0 ? 0 : at % bytes.length;
      if (kind === 'flip' && bytes.length > 0) bytes[i] = value;
      else if (kind === 'cut') bytes = bytes.subarray(0, i);
      else if (kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([value]), bytes.subarray(i)]);
      else if (kind === 'double') bytes = Buffer.concat([bytes, bytes]);
    }
    return new Uint8Array(bytes);
  });

const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,30}$/);

describe(`fuzzing a real server with ${RUNS} requests`, () => {
  let running: RunningServer;
  const store = createMemoryStore();
  const errors: unknown[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  beforeAll(async () => {
    running = await serve({
      store,
      authenticate: staticTokens([TOKEN]),
      port: 0,
      accessLog: false,
      maxBodyBytes: 4096,
      onError: (error) => errors.push(error),
    });
  });
  afterAll(async () => {
    agent.destroy();
    await running.close();
  });

  it('never answers 5xx, answers only Plant or Error bodies, and changes the store only on 200', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          // Weighted towards requests that get past routing and authentication, where the work is.
          method: fc.oneof({ weight: 8, arbitrary: fc.constant('POST') }, fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS')),
          path: fc.oneof(
            { weight: 8, arbitrary: fc.constantFrom('/plants', '/plants?x=1') },
            fc.constantFrom('/plants/', '/openapi.json', '/'),
            fc.stringMatching(/^\/[a-z%0-9./?=&]{0,20}$/),
          ),
          authorization: fc.oneof(
            { weight: 8, arbitrary: fc.constantFrom(`Bearer ${TOKEN}`, `bearer ${TOKEN}`) },
            fc.constant(undefined),
            headerValue,
            headerValue.map((value) => `Bearer ${value}`),
          ),
          contentType: fc.oneof(
            { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
            fc.constantFrom('text/plain', 'application/json; charset=latin1', undefined),
            headerValue,
          ),
          extra: fc.option(fc.tuple(fc.stringMatching(/^x-[a-z]{1,10}$/), headerValue), { nil: undefined }),
          body: fc.oneof(mutatedBody, fc.uint8Array({ maxLength: 64 })),
        }),
        async ({ method, path, authorization, contentType, extra, body }) => {
          const headers: Record<string, string> = {};
          if (authorization !== undefined) headers['authorization'] = authorization;
          if (contentType !== undefined) headers['content-type'] = contentType;
          if (extra !== undefined) headers[extra[0]] = extra[1];
          const sizeBefore = store.size;
          const response = await send(running.url, { method, path, headers, body, agent });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          expect(response.status).toBeLessThan(500);
          const parsed = JSON.parse(response.body) as Record<string, unknown>;
          if (response.status === 200) {
            if (!path.startsWith('/openapi.json')) expect(Object.keys(parsed).filter((key) => key !== 'name' && key !== 'tag')).toEqual([]);
            expect(store.size - sizeBefore).toBeLessThanOrEqual(1);
          } else {
            expect(Object.keys(parsed).sort()).toEqual(['error', 'message']);
            expect(store.size).toBe(sizeBefore);
          }
        },
      ),
      { numRuns: RUNS },
    );
    console.log(`statuses over ${RUNS} fuzzed requests:`, Object.fromEntries([...statuses].sort(([a], [b]) => a - b)));
    expect(errors).toEqual([]);
    expect(
      (
        await send(running.url, {
          path: '/plants',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: '{"id":4611686018427387777,"name":"still up"}',
        })
      ).status,
    ).toBe(200);
  });
});
