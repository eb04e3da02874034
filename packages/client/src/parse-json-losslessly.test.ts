import { int64 } from '@plant-store/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonLosslessly } from './parse-json-losslessly.ts';

/** JSON.parse's view of a value: bigints as the numbers JSON.parse would round them to. */
function rounded(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(rounded);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rounded(item)]));
  return value;
}

describe('parseJsonLosslessly', () => {
  it('agrees with JSON.parse on any JSON text, but for the rounding of large integers (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(rounded(parseJsonLosslessly(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every int64 exact: a number when safe, else a bigint (property)', () => {
    fc.assert(
      fc.property(int64(), (id) => {
        const safe = id >= BigInt(Number.MIN_SAFE_INTEGER) && id <= BigInt(Number.MAX_SAFE_INTEGER);
        expect(parseJsonLosslessly(`{"id":${id}}`)).toEqual({ id: safe ? Number(id) : id });
      }),
    );
  });

  it('reads integer-valued exponent forms exactly, keeps fractions as numbers and a repeated key as its last value', () => {
    expect(parseJsonLosslessly('[9.007199254740993e15, 2e20, 1.5, -0, 1e-7, 1e400, 1e999999999]')).toEqual([
      9007199254740993n,
      200000000000000000000n,
      1.5,
      -0,
      1e-7,
      10n ** 400n,
      // Past the exponent limit, no billion-digit bigint: the number JSON.parse gives.
      Infinity,
    ]);
    expect(parseJsonLosslessly('{"a":1,"a":"\\ud800"}')).toEqual({ a: '\ud800' });
    expect(() => parseJsonLosslessly('{"a":}')).toThrow(SyntaxError);
  });
});
