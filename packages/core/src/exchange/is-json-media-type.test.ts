import { describe, expect, it } from 'vitest';
import { isJsonMediaType } from './is-json-media-type.ts';

describe('isJsonMediaType', () => {
  it.each([
    ['application/json', true],
    ['APPLICATION/JSON', true],
    [' application/json ', true],
    ['application/json; charset=utf-8', true],
    ['application/json;charset="UTF-8"', true],
    ['application/json; charset=utf8; foo=bar', true],
    ['application/json; foo', true],
    [undefined, false],
    ['', false],
    ['text/plain', false],
    ['application/json; charset=latin1', false],
    ['application/json; charset=utf-16', false],
    ['application/problem+json', false],
    ['application/json, text/plain', false],
  ])('%j → %s', (type, expected) => {
    expect(isJsonMediaType(type)).toBe(expected);
  });
});
