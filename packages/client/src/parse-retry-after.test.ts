import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.ts';

describe('parseRetryAfter', () => {
  const now = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT');

  it('reads seconds and HTTP dates as milliseconds from now', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 5 ', now)).toBe(5_000);
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:40 GMT', now)).toBe(3_000);
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const value of [null, '', '-1', '1.5', 'soon', '5 s']) expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
  });
});
