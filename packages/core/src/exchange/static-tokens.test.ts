// Runs under vitest on Node.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBearerCredential } from './authenticate.ts';
import { staticTokens } from './static-tokens.ts';

const b64token = () => fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,40}=*$/);
const noRequest = undefined as never;

describe('staticTokens', () => {
  it('(5) accepts a token if and only if it equals a configured one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(b64token(), { minLength: 1, maxLength: 4 }),
        fc.oneof(b64token(), fc.string({ unit: 'binary', maxLength: 50 })),
        fc.nat(),
        async (tokens, other, pick) => {
          const authenticate = staticTokens(tokens);
          expect(await authenticate(tokens[pick % tokens.length]!, noRequest)).toBe(true);
          expect(await authenticate(other, noRequest)).toBe(tokens.includes(other));
          // Near misses of a configured token: a character more, a character less, one changed.
          const picked = tokens[pick % tokens.length]!;
          for (const near of [`${picked}a`, picked.slice(0, -1), `${picked.slice(0, -1)}${picked.endsWith('x') ? 'y' : 'x'}`]) {
            expect(await authenticate(near, noRequest)).toBe(tokens.includes(near));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses an empty list and tokens no client could send', () => {
    expect(() => staticTokens([])).toThrow(TypeError);
    expect(() => staticTokens(['has space'])).toThrow(TypeError);
    expect(() => staticTokens(['a,b'])).toThrow(TypeError);
  });

  it('refuses a missing or empty token at construction, naming it', () => {
    const env: { PLANT_TOKEN?: string } = {};
    expect(() => staticTokens([env.PLANT_TOKEN!])).toThrow(/token 0 is undefined; is the variable that should hold it set\?/);
    expect(() => staticTokens(['ok', ''])).toThrow(/token 1 is empty/);
    expect(() => staticTokens([null as unknown as string])).toThrow(TypeError);
  });
});

describe('readBearerCredential', () => {
  it('reads the scheme case-insensitively and sorts out missing and malformed credentials', () => {
    expect(readBearerCredential('Bearer abc')).toEqual({ kind: 'token', token: 'abc' });
    expect(readBearerCredential('BEARER  abc=')).toEqual({ kind: 'token', token: 'abc=' });
    expect(readBearerCredential(undefined)).toEqual({ kind: 'missing' });
    expect(readBearerCredential('')).toEqual({ kind: 'missing' });
    expect(readBearerCredential('Bearer')).toEqual({ kind: 'missing' });
    expect(readBearerCredential('Bearer   ')).toEqual({ kind: 'missing' });
    expect(readBearerCredential('Basic abc')).toEqual({ kind: 'missing' });
    expect(readBearerCredential('Bearerabc')).toEqual({ kind: 'missing' });
    expect(readBearerCredential('Bearer a, Bearer b')).toEqual({ kind: 'malformed' });
    expect(readBearerCredential('Bearer a=b')).toEqual({ kind: 'malformed' });
  });

  it('reads every header as the trimmed token and the b64token pattern do', () => {
    // The pattern as the contract states it: the text after "Bearer ", without spaces and tabs around it, all b64token.
    const reference = (header: string) => {
      if (header.indexOf(' ') !== 6 || header.slice(0, 6).toLowerCase() !== 'bearer') return { kind: 'missing' };
      const token = header.slice(7).replace(/^[ \t]+|[ \t]+$/g, '');
      if (token === '') return { kind: 'missing' };
      return /^[A-Za-z0-9\-._~+/]+=*$/.test(token) ? { kind: 'token', token } : { kind: 'malformed' };
    };
    const piece = fc.oneof(
      b64token(),
      fc.constantFrom(' ', '\t', '=', '==', ',', '\u00a0', '\ufeff', 'é', 'Bearer ', '\n', '"', '%'),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    const header = fc.tuple(fc.constantFrom('Bearer ', 'bearer ', 'BEARER ', 'Bearer', 'Basic ', ''), fc.array(piece, { maxLength: 5 }));
    fc.assert(
      fc.property(header, ([scheme, pieces]) => {
        const text = scheme + pieces.join('');
        expect(readBearerCredential(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});
