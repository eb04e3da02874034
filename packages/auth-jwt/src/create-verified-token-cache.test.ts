// Runs in vitest on Node: unit tests of create-verified-token-cache.ts (the verifier's use of it is tested in jwt-authenticate.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifiedTokenCache, ENTRY_OVERHEAD_BYTES, type VerifiedToken } from './create-verified-token-cache.ts';

const NOW = 1_800_000_000;
const verified = (kid: string | undefined, exp = NOW + 600, nbf?: number): VerifiedToken<string> => ({ verdict: `ok:${kid}`, exp, nbf, kid });
const key = (kid: string | undefined, x: string) => ({ kty: 'OKP', crv: 'Ed25519', x, ...(kid === undefined ? {} : { kid }) });

describe('createVerifiedTokenCache', () => {
  it('never holds more than maxEntries tokens nor more than maxBytes, the oldest unused token leaving first', () => {
    const operation = fc.record({ remember: fc.boolean(), token: fc.nat({ max: 40 }) });
    const setUp = fc.record({
      maxEntries: fc.integer({ min: 1, max: 12 }),
      maxBytes: fc.integer({ min: 0, max: 6000 }),
      lengths: fc.array(fc.integer({ min: 3, max: 900 }), { minLength: 41, maxLength: 41 }),
      kidLengths: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 41, maxLength: 41 }),
    });
    fc.assert(
      fc.property(setUp, fc.array(operation, { maxLength: 200 }), ({ maxEntries, maxBytes, lengths, kidLengths }, operations) => {
        const cache = createVerifiedTokenCache<string>({ maxEntries, maxBytes, clockToleranceSeconds: 0 });
        // Each token's kid, of its own length (none at 0): charged with the token.
        const kidOf = (token: string) => {
          const index = Number.parseInt(token, 10);
          return kidLengths[index] === 0 ? undefined : `k${index}`.padEnd(kidLengths[index]!, 'k');
        };
        const cost = (token: string) => token.length + (kidOf(token)?.length ?? 0) + ENTRY_OVERHEAD_BYTES;
        // What the cache must hold, in line, oldest first, each marked when read: the model it is checked against.
        const model: { token: string; used: boolean }[] = [];
        const total = () => model.reduce((sum, each) => sum + cost(each.token), 0);
        for (const { remember, token: index } of operations) {
          const token = `${index}.`.padEnd(lengths[index]!, 'x');
          const at = model.findIndex((each) => each.token === token);
          if (remember) {
            cache.remember(token, verified(kidOf(token)), cache.generation);
            if (at !== -1) model.splice(at, 1);
            if (cost(token) <= maxBytes) model.push({ token, used: false });
            while (model.length > maxEntries || total() > maxBytes) {
              const first = model.shift()!;
              if (first.used) model.push({ token: first.token, used: false });
            }
          } else {
            expect(cache.read(token, NOW)).toBe(at === -1 ? undefined : `ok:${kidOf(token)}`);
            if (at !== -1) model[at]!.used = true;
          }
          expect(cache.size).toBe(model.length);
          expect(cache.size).toBeLessThanOrEqual(maxEntries);
          expect(cache.bytes).toBe(total());
          expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers false once exp has passed and while nbf is ahead, with the leeway, as jose decides', () => {
    const cache = createVerifiedTokenCache<string>({ maxEntries: 10, maxBytes: 10_000, clockToleranceSeconds: 30 });
    cache.remember('expiring', verified('a', NOW + 100), 0);
    cache.remember('early', verified('a', NOW + 1000, NOW + 100), 0);
    // jose: refused when exp <= now - tolerance, when nbf > now + tolerance.
    expect(cache.read('expiring', NOW + 129)).toBe('ok:a');
    expect(cache.read('early', NOW + 69)).toBe(false);
    expect(cache.read('early', NOW + 70)).toBe('ok:a');
    expect(cache.read('expiring', NOW + 130)).toBe(false);
    // An expired token is forgotten; one not yet valid is kept for when it is.
    expect(cache.read('expiring', NOW)).toBeUndefined();
    expect(cache.read('early', NOW)).toBe(false);
    expect(cache.size).toBe(1);
  });

  it('does not remember a verification that overlapped a change of keys', () => {
    const cache = createVerifiedTokenCache<string>({ maxEntries: 10, maxBytes: 10_000, clockToleranceSeconds: 0 });
    // The first keys, and the same keys fetched again, change nothing a verification used.
    let before = cache.generation;
    cache.keysReplaced({ keys: [key('a', 'one')] });
    cache.keysReplaced({ keys: [key('a', 'one')] });
    cache.remember('first', verified('a'), before);
    expect(cache.read('first', NOW)).toBe('ok:a');
    before = cache.generation;
    cache.keysReplaced({ keys: [key('a', 'one'), key('b', 'two')] });
    cache.remember('token', verified('a'), before);
    expect(cache.read('token', NOW)).toBeUndefined();
    cache.remember('token', verified('a'), cache.generation);
    expect(cache.read('token', NOW)).toBe('ok:a');
  });

  it("forgets the tokens whose kid's keys changed or left, and those without kid on any change, and keeps the rest", () => {
    const cache = createVerifiedTokenCache<string>({ maxEntries: 10, maxBytes: 10_000, clockToleranceSeconds: 0 });
    cache.keysReplaced({ keys: [key('a', 'one'), key('b', 'two'), key('c', 'three'), key(undefined, 'four')] });
    const remember = (kids: (string | undefined)[]) => {
      for (const kid of kids) cache.remember(`token-${kid}`, verified(kid), cache.generation);
    };
    const kept = () => ['a', 'b', 'c', undefined].filter((kid) => cache.read(`token-${kid}`, NOW) !== undefined);
    remember(['a', 'b', 'c', undefined]);
    // The same keys fetched again: nothing forgotten.
    cache.keysReplaced({ keys: [key('a', 'one'), key('b', 'two'), key('c', 'three'), key(undefined, 'four')] });
    expect(kept()).toEqual(['a', 'b', 'c', undefined]);
    // b left, c's key was replaced under the same kid: their tokens, and the one without kid, go.
    cache.keysReplaced({ keys: [key('a', 'one'), key('c', 'five'), key(undefined, 'four')] });
    expect(kept()).toEqual(['a']);
    remember(['c', undefined]);
    // A second key under a (two candidates: jose refuses) changes a's keys; a key without kid changes no kid's.
    cache.keysReplaced({ keys: [key('a', 'one'), key('a', 'six'), key('c', 'five')] });
    expect(kept()).toEqual(['c']);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe('token-c'.length + 'c'.length + ENTRY_OVERHEAD_BYTES);
  });

  it('keeps its bound and its order over many more tokens than it holds, read among them', () => {
    const cache = createVerifiedTokenCache<string>({ maxEntries: 1000, maxBytes: 10_000_000, clockToleranceSeconds: 0 });
    for (let index = 0; index < 200_000; index++) {
      cache.remember(`token-${index}`, verified('a'), 0);
      // Reads move tokens to the end; the front of the Map fills with emptied slots either way.
      if (index % 3 === 0) cache.read(`token-${index - 500}`, NOW);
    }
    expect(cache.size).toBe(1000);
    expect(cache.read('token-199999', NOW)).toBe('ok:a');
    expect(cache.read('token-198000', NOW)).toBeUndefined();
  });
});
