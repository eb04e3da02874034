// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { parseRateLimit } from './_parse-rate-limit.ts';

describe('parseRateLimit', () => {
  it('reads LIMIT/SECONDS, and off, empty or unset as no limit', () => {
    expect(parseRateLimit('100/60')).toEqual({ limit: 100, windowSeconds: 60 });
    expect(parseRateLimit(' 5 / 1s ')).toEqual({ limit: 5, windowSeconds: 1 });
    expect([parseRateLimit(undefined), parseRateLimit(''), parseRateLimit('OFF')]).toEqual([undefined, undefined, undefined]);
  });

  it('refuses anything else, naming the form', () => {
    for (const bad of ['100', '0/60', '10/0', '10/1m', 'many']) expect(() => parseRateLimit(bad)).toThrow('PLANT_STORE_RATE_LIMIT: expected LIMIT/SECONDS');
  });
});
