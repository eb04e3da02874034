// Runs under vitest on Node: the answer bound against the UTF-8 size TextEncoder gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANSWER_BASE_BYTES, answerByteLimit } from './answer-byte-limit.ts';

describe('answerByteLimit', () => {
  it('is 64 KiB plus six times the UTF-8 size of the request, lone surrogates counted as the three bytes of U+FFFD (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('\ud800', '\udc00', 'a', 'é', '€', '🌵') })), (text) => {
        expect(answerByteLimit(text)).toBe(ANSWER_BASE_BYTES + 6 * new TextEncoder().encode(text).length);
      }),
      { numRuns: 500 },
    );
    expect(answerByteLimit('')).toBe(65_536);
    expect(answerByteLimit('{"id":1,"name":"é🌵"}')).toBe(65_536 + 6 * 24);
  });
});
