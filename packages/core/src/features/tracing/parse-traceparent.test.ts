import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTracestate, parseTraceparent } from './parse-traceparent.ts';

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const nonZeroHex = (length: number) => hex(length).filter((text) => /[^0]/.test(text));

describe('parseTraceparent', () => {
  it('reads a version 00 header', () => {
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentId: '00f067aa0ba902b7',
      traceFlags: 1,
    });
  });

  it('reads every well-formed version 00 header back into its fields', () => {
    fc.assert(
      fc.property(nonZeroHex(32), nonZeroHex(16), hex(2), (traceId, parentId, flags) => {
        expect(parseTraceparent(`00-${traceId}-${parentId}-${flags}`)).toEqual({ traceId, parentId, traceFlags: Number.parseInt(flags, 16) });
      }),
    );
  });

  it('refuses what the W3C spec says a receiver must ignore', () => {
    const valid = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    for (const header of [
      undefined,
      '',
      valid.toUpperCase(),
      `${valid}-extra`,
      `${valid} `,
      valid.slice(0, -1),
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01',
      `${valid}, ${valid}`,
      '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x',
    ]) {
      expect(parseTraceparent(header), String(header)).toBeUndefined();
    }
  });

  it('reads a later version by its first four fields when a dash follows them', () => {
    expect(parseTraceparent('cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-next')?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(parseTraceparent('cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')?.parentId).toBe('00f067aa0ba902b7');
  });

  it('never accepts a header that is not 55 characters of the version 00 shape', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const parsed = parseTraceparent(`00${text}`);
        if (parsed !== undefined) expect(`00${text}`).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);
      }),
    );
  });
});

describe('isTracestate', () => {
  it('accepts the members the spec shows, with empty members and spaces', () => {
    expect(isTracestate('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE')).toBe(true);
    expect(isTracestate('tenant@vendor=x, ,  a=b')).toBe(true);
    expect(isTracestate('')).toBe(true);
  });

  it('refuses bad keys, bad values, repeated keys and more than 32 members', () => {
    for (const header of ['Rojo=1', 'rojo', 'rojo=a=b', 'rojo=1,rojo=2', 'rojo=a\tb', Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')]) {
      expect(isTracestate(header), header).toBe(false);
    }
  });
});
