import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHttpDate, parseRetryAfter } from './parse-retry-after.ts';

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

  it("takes no text for a date that is not one of HTTP's three forms, though Date.parse reads it", () => {
    // Date.parse reads the first two as 2001 and 2099 on Node, Bun and Deno: no wait, and a wait past any budget.
    for (const value of ['x 1', 'Retry 2099', '2099-01-01', 'Sun, 06 Nov 1994 08:49:40', 'Sun, 6 Nov 1994 08:49:40 GMT', 'sun, 06 nov 1994 08:49:40 gmt']) {
      expect(parseRetryAfter(value, now), value).toBeUndefined();
    }
  });
});

describe('parseHttpDate', () => {
  const now = Date.parse('2026-11-30T06:00:00Z');

  it("reads RFC 9110's three forms of the same instant alike", () => {
    const instant = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(instant);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(instant);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994', now)).toBe(instant);
  });

  it('takes a two-digit year more than 50 years ahead as the latest past year with its digits', () => {
    expect(parseHttpDate('Thursday, 01-Jan-30 00:00:00 GMT', now)).toBe(Date.UTC(2030, 0, 1));
    expect(parseHttpDate('Friday, 01-Jan-99 00:00:00 GMT', now)).toBe(Date.UTC(1999, 0, 1));
  });

  it('reads the leap second RFC 9110 allows as the second after it', () => {
    expect(parseHttpDate('Sat, 31 Dec 2016 23:59:60 GMT', now)).toBe(Date.UTC(2017, 0, 1));
    expect(parseHttpDate('Sat Dec 31 23:59:60 2016', now)).toBe(Date.UTC(2017, 0, 1));
  });

  it('refuses a date that does not exist', () => {
    for (const value of ['Tue, 31 Feb 2026 00:00:00 GMT', 'Mon, 30 Nov 2026 24:00:00 GMT', 'Mon, 30 Nov 2026 00:60:00 GMT', 'Mon, 30 Nov 2026 12:00:60 GMT']) {
      expect(parseHttpDate(value, now), value).toBeUndefined();
    }
  });

  it('reads every IMF-fixdate back as the instant it was written from (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }), (date) => {
        const whole = Math.floor(date.getTime() / 1000) * 1000;
        expect(parseHttpDate(new Date(whole).toUTCString(), now)).toBe(whole);
      }),
    );
  });
});
