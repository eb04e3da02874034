// Runs under vitest on Node.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInt64Literal } from './parse-int64-literal.ts';
import { INT64_MAX, INT64_MIN } from './schemas.ts';
import { int64, outOfRangeInteger } from '@plant-store/testing';

/** The value of a JSON number literal as an exact fraction, by the definition of the grammar. */
function reference(sign: string, int: string, frac: string, exp: number): bigint | undefined {
  let numerator = BigInt(int + frac);
  let denominator = 10n ** BigInt(frac.length);
  if (exp >= 0) numerator *= 10n ** BigInt(exp);
  else denominator *= 10n ** BigInt(-exp);
  if (numerator % denominator !== 0n) return undefined;
  const value = (sign === '-' ? -1n : 1n) * (numerator / denominator);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

describe('parseInt64Literal', () => {
  it('reads every int64 exactly', () => {
    fc.assert(
      fc.property(int64(), (id) => {
        expect(parseInt64Literal(id.toString())).toBe(id);
        expect(parseInt64Literal(`${id}.000`)).toBe(id);
        expect(parseInt64Literal(`${id}0E-1`)).toBe(id);
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects every integer outside int64', () => {
    fc.assert(
      fc.property(outOfRangeInteger(), (n) => {
        expect(parseInt64Literal(n.toString())).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with exact rational arithmetic on any number literal', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', '-'),
        fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,21}$/)),
        fc.option(fc.stringMatching(/^\d{1,6}$/), { nil: undefined }),
        fc.option(fc.integer({ min: -30, max: 30 }), { nil: undefined }),
        // The exponent as JSON may write it: `e` or `E`, `+` or no sign before a positive one, leading zeros.
        fc.constantFrom('e', 'E'),
        fc.boolean(),
        fc.nat({ max: 16 }),
        (sign, int, frac, exp, e, plus, zeros) => {
          const exponent = exp === undefined ? '' : `${e}${exp < 0 ? '-' : plus ? '+' : ''}${'0'.repeat(zeros)}${Math.abs(exp)}`;
          const literal = `${sign}${int}${frac === undefined ? '' : `.${frac}`}${exponent}`;
          expect(parseInt64Literal(literal)).toBe(reference(sign, int, frac ?? '', exp ?? 0));
        },
      ),
      { numRuns: 10000 },
    );
  });

  it('handles pathological literals without building huge numbers', () => {
    expect(parseInt64Literal('1'.repeat(1 << 20))).toBeUndefined();
    expect(parseInt64Literal(`0.${'0'.repeat(100000)}1e100001`)).toBe(1n);
    expect(parseInt64Literal('1e999999999999999999')).toBeUndefined();
    expect(parseInt64Literal('0e999999999999999999')).toBe(0n);
    expect(parseInt64Literal('1e-999999999999999999')).toBeUndefined();
    // Leading zeros make an exponent long, not large.
    expect(parseInt64Literal(`1e${'0'.repeat(100000)}2`)).toBe(100n);
    expect(parseInt64Literal(`100E-${'0'.repeat(100000)}2`)).toBe(1n);
    // A megabyte of zeros inside the digits, at the end of them, and in a fraction: each read in one pass (a
    // pattern for the trailing zeros took a time the square of their run's length, minutes for these).
    expect(parseInt64Literal(`1${'0'.repeat(1 << 20)}1`)).toBeUndefined();
    expect(parseInt64Literal(`1.${'0'.repeat(1 << 20)}1`)).toBeUndefined();
    expect(parseInt64Literal(`-1.${'0'.repeat(1 << 20)}`)).toBe(-1n);
    expect(parseInt64Literal(`1${'0'.repeat(1 << 20)}e-${1 << 20}`)).toBe(1n);
    expect(parseInt64Literal('-0')).toBe(0n);
    expect(parseInt64Literal('5e2')).toBe(500n);
    expect(parseInt64Literal('abc')).toBeUndefined();
  });
});
