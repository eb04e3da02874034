import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findMemberSource } from './find-member-source.ts';

describe('findMemberSource', () => {
  it('finds the literal of the top-level key, whatever surrounds it', () => {
    const decoy = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value));
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.string({ maxLength: 6 }).filter((k) => k !== 'id'),
            decoy,
          ),
          { maxLength: 4 },
        ),
        fc.nat(),
        fc.stringMatching(/^-?(0|[1-9]\d{0,25})(\.\d{1,5})?([eE][+-]?\d{1,3})?$/),
        fc.constantFrom('"id"', '"\\u0069d"', '"i\\u0064"'),
        fc.constantFrom('', ' ', '\n\t '),
        (members, position, literal, key, space) => {
          const parts = members.map(([k, v]) => `${JSON.stringify(k)}:${v}`);
          // A nested "id" must be ignored: only the top level counts.
          parts.push(`"nested":{"id":12345,"x":["id",{"id":6}]}`);
          parts.splice(position % (parts.length + 1), 0, `${key}${space}:${space}${literal}`);
          const json = `{${space}${parts.join(`,${space}`)}${space}}`;
          JSON.parse(json);
          expect(findMemberSource(json, 'id')).toBe(literal);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('takes the last of repeated keys, as JSON.parse does, and skips non-numbers', () => {
    expect(findMemberSource('{"id":1,"id":2}', 'id')).toBe('2');
    expect(findMemberSource('{"id":1,"id":"2"}', 'id')).toBeUndefined();
    expect(findMemberSource('{"a":"\\"id\\":5","id":7}', 'id')).toBe('7');
    expect(findMemberSource('{"name":"id"}', 'id')).toBeUndefined();
  });
});
