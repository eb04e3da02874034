import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRequestId, MAX_REQUEST_ID_LENGTH, requestIdOf } from './request-id.ts';

const SANE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=._:-'.split('');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const saneId = () => fc.string({ unit: fc.constantFrom(...SANE), minLength: 1, maxLength: MAX_REQUEST_ID_LENGTH });

describe('request ids', () => {
  it('echoes any sane X-Request-Id unchanged', () => {
    fc.assert(
      fc.property(saneId(), (id) => {
        expect(isRequestId(id)).toBe(true);
        expect(requestIdOf(id)).toBe(id);
      }),
      { numRuns: 2000 },
    );
  });

  it('replaces any other with a new UUID: a character outside the set, or too long', () => {
    const outside = fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }).filter((text) => [...text].some((char) => !SANE.includes(char)));
    const insane = fc.oneof(
      fc
        .tuple(fc.string({ unit: fc.constantFrom(...SANE), maxLength: 60 }), outside, fc.string({ unit: fc.constantFrom(...SANE), maxLength: 60 }))
        .map((parts) => parts.join('')),
      fc.string({ unit: fc.constantFrom(...SANE), minLength: MAX_REQUEST_ID_LENGTH + 1, maxLength: 300 }),
      fc.constant(''),
    );
    fc.assert(
      fc.property(insane, (id) => {
        expect(isRequestId(id)).toBe(false);
        const made = requestIdOf(id);
        expect(made).toMatch(UUID);
        expect(made).not.toBe(id);
      }),
      { numRuns: 2000 },
    );
  });

  it('makes a new UUID for a request without one, different every time', () => {
    // 1,000 ids: past several refills of the pool of randomness.
    const made = new Set(Array.from({ length: 1000 }, () => requestIdOf(undefined)));
    expect(made.size).toBe(1000);
    for (const id of made) expect(id).toMatch(UUID);
  });

  it('refuses what would split or forge a header or a log line', () => {
    for (const id of ['a b', 'a\r\nx-evil: 1', 'a\n', 'a,b', '"a"', 'a\u0000', 'ü', 'a;b']) expect(isRequestId(id), JSON.stringify(id)).toBe(false);
  });
});
