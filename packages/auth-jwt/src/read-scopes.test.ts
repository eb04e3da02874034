// Runs in vitest on Node: unit tests of read-scopes.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readScopes } from './read-scopes.ts';

const scopeName = fc.stringMatching(/^[\x21\x23-\x5b\x5d-\x7e]{1,12}$/);
const spaces = fc.integer({ min: 1, max: 3 }).map((count) => ' '.repeat(count));

describe('readScopes', () => {
  it('grants exactly the names written in scope or scp, in any of their shapes', () => {
    fc.assert(
      fc.property(fc.array(scopeName, { maxLength: 6 }), fc.array(scopeName, { maxLength: 6 }), spaces, fc.boolean(), (inScope, inScp, gap, scpAsArray) => {
        const claims = { scope: inScope.join(gap), scp: scpAsArray ? inScp : inScp.join(' ') };
        expect([...readScopes(claims)].sort()).toEqual([...new Set([...inScope, ...inScp])].sort());
      }),
    );
  });

  it('grants nothing from claims of another shape', () => {
    for (const claims of [{}, { scope: 7 }, { scope: ['plants:write'] }, { scp: { 'plants:write': true } }, { scp: [1, null] }, { scopes: 'plants:write' }]) {
      expect(readScopes(claims).size).toBe(0);
    }
  });
});
