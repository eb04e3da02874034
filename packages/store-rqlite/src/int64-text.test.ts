// Runs on Node (vitest): ids as the exact decimal text rqlite is sent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { int64Text } from './int64-text.ts';

describe('int64Text', () => {
  it('writes every int64 exactly, the ends and the neighbours of 2^53 included', () => {
    expect(int64Text(-(2n ** 63n))).toBe('-9223372036854775808');
    expect(int64Text(2n ** 63n - 1n)).toBe('9223372036854775807');
    expect(int64Text(2n ** 53n + 1n)).toBe('9007199254740993');
    fc.assert(fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (id) => BigInt(int64Text(id)) === id));
  });

  it('refuses what is no int64 bigint', () => {
    expect(() => int64Text(2n ** 63n)).toThrow(RangeError);
    expect(() => int64Text(-(2n ** 63n) - 1n)).toThrow(RangeError);
    expect(() => int64Text(1 as unknown as bigint)).toThrow(RangeError);
  });
});
