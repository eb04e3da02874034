// Runs under vitest on Node: unit tests of is-canonical-jws.ts (the verifier's use of it is tested in jwt-authenticate.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCanonicalJws } from './is-canonical-jws.ts';

const encode = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
/** Node's decoder ignores bits past the last byte and its encoder writes none: a part is canonical when it comes back the same. */
const roundTrips = (part: string) => /^[A-Za-z0-9_-]*$/.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part;

describe('isCanonicalJws', () => {
  it('accepts any three byte strings in unpadded base64url', () => {
    fc.assert(
      fc.property(fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 70 })), (three) => {
        expect(isCanonicalJws(three.map(encode).join('.'))).toBe(true);
      }),
    );
  });

  it('accepts a part exactly when it is the one spelling of its bytes, padding and other alphabets refused', () => {
    const part = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=.'.split('')), maxLength: 12 });
    fc.assert(
      fc.property(part, fc.nat({ max: 2 }), (text, at) => {
        const three = ['e30', 'e30', 'AA'];
        three[at] = text;
        const parts = text.split('.');
        expect(isCanonicalJws(three.join('.'))).toBe(parts.length === 1 && roundTrips(text));
      }),
      { numRuns: 5000 },
    );
    // The same byte as 'AA', with a bit set past it; one character is less than a byte.
    expect(['AA', 'AB', 'AP', 'AQ', 'A', 'AA=='].map((signature) => isCanonicalJws(`e30.e30.${signature}`))).toEqual([true, false, false, true, false, false]);
    expect(['e30.e30', 'e30.e30.AA.', '..', '...'].map(isCanonicalJws)).toEqual([false, false, true, false]);
  });
});
