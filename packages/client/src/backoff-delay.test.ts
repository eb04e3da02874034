import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff-delay.ts';

describe('backoffDelay', () => {
  it('lies in the upper half of a doubling ceiling capped at maxDelayMs (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 1, max: 10_000, noNaN: true }),
        fc.double({ min: 1, max: 100_000, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, initial, max, random) => {
          const ceiling = Math.min(max, initial * 2 ** (retry - 1));
          const delay = backoffDelay(retry, initial, max, () => random);
          expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
          expect(delay).toBeLessThanOrEqual(ceiling);
          expect(delay).toBeLessThanOrEqual(max);
          // Never shorter than the same draw for an earlier retry.
          if (retry > 1) expect(delay).toBeGreaterThanOrEqual(backoffDelay(retry - 1, initial, max, () => random));
        },
      ),
    );
  });

  it('doubles: 100, 200, 400 ms ceilings, then the cap', () => {
    expect([1, 2, 3, 4].map((retry) => backoffDelay(retry, 100, 500, () => 0.9999999))).toEqual([
      expect.closeTo(100, 3),
      expect.closeTo(200, 3),
      expect.closeTo(400, 3),
      expect.closeTo(500, 3),
    ]);
    expect(backoffDelay(1, 100, 500, () => 0)).toBe(50);
  });
});
