// Runs under vitest on Node.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonMediaType } from './is-json-media-type.ts';
import { readBearerCredential } from './authenticate.ts';
import { trimOws } from './trim-ows.ts';

describe('trimOws', () => {
  it('drops the spaces and tabs around a value and nothing else', () => {
    const ows = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 });
    const value = fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\u00a0', '\ufeff', '\u2028', '\v', '\f', '\r', '\n'), maxLength: 6 });
    fc.assert(
      fc.property(ows, value, ows, (before, middle, after) => {
        const expected = middle.replace(/^[ \t]+|[ \t]+$/g, '');
        expect(trimOws(before + middle + after)).toBe(expected);
      }),
    );
  });

  it('keeps a bearer token or a media type that ends in a character HTTP does not count as whitespace', () => {
    // A header byte 0xA0 reads as U+00A0, which String.prototype.trim would drop: the token is then not the one sent.
    for (const other of ['\u00a0', '\ufeff', '\u2028', '\v']) {
      expect(readBearerCredential(`Bearer s3cret${other}`)).toEqual({ kind: 'malformed' });
      expect(isJsonMediaType(`application/json${other}`)).toBe(false);
      expect(isJsonMediaType(`application/json; charset=utf-8${other}`)).toBe(false);
    }
    expect(readBearerCredential('Bearer s3cret \t')).toEqual({ kind: 'token', token: 's3cret' });
    expect(isJsonMediaType('application/json \t; charset = "UTF-8"\t')).toBe(true);
  });
});
