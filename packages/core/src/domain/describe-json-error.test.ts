import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeJsonError, findJsonErrorOffset } from './describe-json-error.ts';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('describeJsonError', () => {
  it('agrees with JSON.parse on what is JSON, for valid documents and their mutations', () => {
    const mutated = fc
      .tuple(fc.json(), fc.nat(), fc.nat(), fc.constantFrom('', '"', '}', ']', ',', ':', '\\', '\u0001', ' ', 'e', '-', '0', '.', 'x', '{', '['))
      .map(([json, at, cut, insert]) => {
        const i = at % (json.length + 1);
        return json.slice(0, i) + insert + json.slice(i + (cut % 3));
      });
    fc.assert(
      fc.property(fc.oneof(fc.json(), mutated, fc.string({ maxLength: 12 })), (text) => {
        expect(findJsonErrorOffset(text) === undefined).toBe(parses(text));
      }),
      { numRuns: 20000 },
    );
  });

  it('says where the error is, the same way on every engine', () => {
    expect(describeJsonError('{"id":1,"name":}')).toBe('invalid JSON at offset 15: unexpected "}"');
    expect(describeJsonError('{"id":1')).toBe('invalid JSON at offset 7: unexpected end of input');
    expect(describeJsonError('')).toBe('invalid JSON at offset 0: unexpected end of input');
    expect(describeJsonError('{"a":"\u0001"}')).toBe('invalid JSON at offset 6: unexpected "\\u0001"');
  });

  it('survives 100,000 levels of nesting without recursion', () => {
    expect(describeJsonError('['.repeat(100000))).toBe('invalid JSON at offset 100000: unexpected end of input');
  });
});
