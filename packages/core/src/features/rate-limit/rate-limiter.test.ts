// Runs under vitest on Node.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPlantResponder } from '../../create-plant-responder.ts';
import type { PlantRequest, PlantResponse } from '../../exchange/http-types.ts';
import type { PlantStore } from '../../domain/plant-store.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { staticTokens } from '../../exchange/static-tokens.ts';

/** Requests as (token, ms after the previous one), over a few tokens. */
const traffic = fc.array(fc.record({ token: fc.constantFrom('a', 'b', 'c', 'd'), gapMs: fc.nat({ max: 700 }) }), { maxLength: 300 });

function run(limit: number, windowSeconds: number, requests: readonly { token: string; gapMs: number }[]) {
  let now = 1_000_000;
  const limiter = createRateLimiter({ limit, windowSeconds, now: () => now });
  return requests.map(({ token, gapMs }) => {
    now += gapMs;
    return { token, window: Math.floor(now / (windowSeconds * 1000)), refusal: limiter.take(token) };
  });
}

describe('createRateLimiter', () => {
  it('never admits more than the limit for one token in one window, and admits every request up to it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 3 }), traffic, (limit, windowSeconds, requests) => {
        const seen = new Map<string, { admitted: number; refused: number }>();
        for (const { token, window, refusal } of run(limit, windowSeconds, requests)) {
          const key = `${token}@${window}`;
          const counts = seen.get(key) ?? { admitted: 0, refused: 0 };
          if (refusal === undefined) counts.admitted++;
          else counts.refused++;
          seen.set(key, counts);
          // A refusal only once the token has used its whole quota in this window.
          if (refusal !== undefined) expect(counts.admitted).toBe(limit);
        }
        for (const { admitted } of seen.values()) expect(admitted).toBeLessThanOrEqual(limit);
      }),
    );
  });

  it("a token's refusals change nothing for another token", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), traffic, fc.array(fc.nat({ max: 700 }), { maxLength: 100 }), (limit, others, extraGaps) => {
        // The decisions for the others with and without a flood of 'x' between them.
        const alone = run(limit, 1, others).map(({ refusal }) => refusal === undefined);
        const mixed: { token: string; gapMs: number }[] = [];
        others.forEach((request, index) => {
          mixed.push({ ...request, gapMs: request.gapMs });
          for (let i = 0; i < (extraGaps[index] ?? 0) % 4; i++) mixed.push({ token: 'x', gapMs: 0 });
        });
        const withFlood = run(limit, 1, mixed)
          .filter(({ token }) => token !== 'x')
          .map(({ refusal }) => refusal === undefined);
        expect(withFlood).toEqual(alone);
      }),
    );
  });

  it('admits no more than the limit in the window the clock has reached, however often the clock steps back, until a step of more than a window starts afresh', () => {
    // Date.now can step back (an NTP correction): a step back over a window's edge must not start every count afresh;
    // a step of more than a window starts afresh once (below).
    const jittery = fc.array(fc.record({ token: fc.constantFrom('a', 'b'), gapMs: fc.oneof(fc.integer({ min: -700, max: 700 }), fc.constant(-5_000)) }), {
      maxLength: 300,
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), jittery, (limit, requests) => {
        let now = 1_000_000;
        let reached = -Infinity;
        let started = 0;
        const limiter = createRateLimiter({ limit, windowSeconds: 1, now: () => now });
        const admitted = new Map<string, number>();
        for (const { token, gapMs } of requests) {
          now += gapMs;
          const window = Math.floor(now / 1000);
          // Each start afresh is a quota of its own, even in a window number seen before.
          if (window > reached || window < reached - 1) {
            reached = window;
            started++;
          }
          if (limiter.take(token) !== undefined) continue;
          const key = `${token}@${started}`;
          admitted.set(key, (admitted.get(key) ?? 0) + 1);
          expect(admitted.get(key)).toBeLessThanOrEqual(limit);
        }
      }),
    );
  });

  it('starts afresh once when the clock steps back by more than a window, rather than hold every token to one quota until it catches up', () => {
    let now = 3_600_000;
    const limiter = createRateLimiter({ limit: 2, windowSeconds: 1, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')?.status]).toEqual([undefined, undefined, 429]);
    now -= 3_600_000;
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')?.status]).toEqual([undefined, undefined, 429]);
    now += 1_000;
    expect(limiter.take('a')).toBeUndefined();
  });

  it('refuses with 429 (1404), Retry-After and the draft RateLimit headers counting down to the window end', () => {
    let now = 60_000 * 5 + 43_500;
    const limiter = createRateLimiter({ limit: 2, windowSeconds: 60, now: () => now });
    expect(limiter.take('t')).toBeUndefined();
    expect(limiter.take('t')).toBeUndefined();
    const refusal = limiter.take('t')!;
    expect(refusal.status).toBe(429);
    expect(JSON.parse(refusal.body)).toEqual({ error: 1404, message: 'too many requests for this token; retry in 17 s' });
    expect(refusal.headers).toMatchObject({ 'retry-after': '17', 'ratelimit-policy': '"per-token";q=2;w=60', ratelimit: '"per-token";r=0;t=17' });
    now += 17_000;
    expect(limiter.take('t')).toBeUndefined();
  });

  it('holds at most maxTokens tokens, forgetting the one counted first', () => {
    const limiter = createRateLimiter({ limit: 1, windowSeconds: 60, maxTokens: 3, now: () => 0 });
    for (const token of ['a', 'b', 'c', 'd', 'e']) limiter.take(token);
    expect(limiter.size).toBe(3);
    expect(limiter.take('e')).toBeDefined();
    expect(limiter.take('a')).toBeUndefined();
  });

  it('rejects options out of range', () => {
    expect(() => createRateLimiter({ limit: 0, windowSeconds: 1 })).toThrow('createRateLimiter: `rateLimit.limit` must be a positive integer');
    expect(() => createRateLimiter({ limit: 1, windowSeconds: 0.5 })).toThrow('windowSeconds');
  });
});

describe('the rateLimit option of a responder', () => {
  const store: PlantStore = { insertIfAbsent: () => ({ status: 'inserted' }), get: async () => undefined };
  const respondTo = createPlantResponder({ store, authenticate: staticTokens(['one', 'two']), rateLimit: { limit: 1, windowSeconds: 3600 } });
  function create(token: string): PlantResponse {
    const bytes = new TextEncoder().encode('{"id":1,"name":"Fern"}');
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const request: PlantRequest = { method: 'POST', url: '/plants', header: (name) => headers[name], readBody: () => ({ ok: true, bytes }) };
    let answer: PlantResponse | undefined;
    respondTo(request, (response) => (answer = response));
    return answer!;
  }

  it('answers a token over its rate 429, leaves another token alone, and never counts a rejected token', () => {
    expect(create('wrong').status).toBe(401);
    expect(create('wrong').status).toBe(401);
    expect(create('one').status).toBe(200);
    expect(create('one').status).toBe(429);
    expect(create('two').status).toBe(200);
  });
});
