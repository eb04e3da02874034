import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeUtf8Error } from './describe-utf8-error.ts';

const fatal = new TextDecoder('utf-8', { fatal: true });
function decodes(bytes: Uint8Array): boolean {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

describe('describeUtf8Error', () => {
  it('points at the first byte where the fatal decoder would fail', () => {
    const utf8ish = fc.array(
      fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0xc0, 0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0x80, 0xbf, 0xa0, 0x9f, 0x8f, 0x90)),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          utf8ish,
          fc.string({ unit: 'binary' }).map((s) => [...new TextEncoder().encode(s)]),
        ),
        (array) => {
          const bytes = new Uint8Array(array);
          if (decodes(bytes)) return;
          const match = /at byte (\d+)$/.exec(describeUtf8Error(bytes));
          expect(match).not.toBeNull();
          const at = Number(match![1]);
          expect(decodes(bytes.subarray(0, at))).toBe(true);
          expect(decodes(bytes.subarray(0, at + 4))).toBe(false);
        },
      ),
      { numRuns: 20000 },
    );
  });
});
