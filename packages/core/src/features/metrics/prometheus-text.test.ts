import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHelp, escapeLabelValue, formatSampleValue, labelSet } from './prometheus-text.ts';

/** Reads an escaped label value back as Prometheus' text parser does. */
function unescapeLabelValue(text: string): string {
  return text.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

describe('the Prometheus text format', () => {
  it('escapes any label value so that it reads back unchanged and holds no bare quote or line feed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        const escaped = escapeLabelValue(value);
        expect(escaped).not.toMatch(/\n/);
        expect(escaped.replace(/\\./g, '')).not.toMatch(/["\\]/);
        expect(unescapeLabelValue(escaped)).toBe(value);
      }),
    );
  });

  it('escapes help text: backslash and line feed, not quotes', () => {
    expect(escapeHelp('a\\b\n"c"')).toBe('a\\\\b\\n"c"');
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(escapeHelp(text)).not.toMatch(/\n/);
        expect(escapeHelp(text).replace(/\\\\|\\n/g, '')).not.toMatch(/\\/);
      }),
    );
  });

  it('writes sample values Go reads', () => {
    expect(formatSampleValue(Number.POSITIVE_INFINITY)).toBe('+Inf');
    expect(formatSampleValue(Number.NEGATIVE_INFINITY)).toBe('-Inf');
    expect(formatSampleValue(Number.NaN)).toBe('NaN');
    expect(formatSampleValue(0.005)).toBe('0.005');
    expect(formatSampleValue(12)).toBe('12');
  });

  it('writes label sets in order', () => {
    expect(labelSet([])).toBe('');
    expect(
      labelSet([
        ['a', '1'],
        ['b', 'x"y'],
      ]),
    ).toBe('{a="1",b="x\\"y"}');
  });
});
