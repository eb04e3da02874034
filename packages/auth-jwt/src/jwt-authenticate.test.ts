// Runs in vitest on Node: unit tests of jwt-authenticate.ts, with keys given (the JWKS cache has its own tests).
import fc from 'fast-check';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { jwtAuthenticate, type JwtAuthenticateOptions, type PublicJwk } from './jwt-authenticate.ts';

const ISSUER = 'https://issuer.example/';
const AUDIENCE = 'https://plants.example';
const TOLERANCE = 30;
const noRequest = undefined as never;
let privateKey: CryptoKey;
let publicJwk: PublicJwk;
let rsa: { privateKey: CryptoKey; publicJwk: PublicJwk; spki: string };

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'es', alg: 'ES256' } as PublicJwk;
  const rsaPair = await generateKeyPair('RS256', { extractable: true });
  rsa = {
    privateKey: rsaPair.privateKey,
    publicJwk: { ...(await exportJWK(rsaPair.publicKey)), kid: 'rs' } as PublicJwk,
    spki: await exportSPKI(rsaPair.publicKey),
  };
});

const sign = (claims: JWTPayload, kid = 'es') => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
const verifier = (options: Partial<JwtAuthenticateOptions> = {}) =>
  jwtAuthenticate({ issuer: ISSUER, audience: AUDIENCE, keys: [publicJwk, rsa.publicJwk], clockToleranceSeconds: TOLERANCE, ...options });
const base64url = (text: string) => btoa(text).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/** RFC 7519 §4.1, read plainly: the verdict a token with these claims must get at `now` (seconds). */
function reference(claims: JWTPayload, now: number): boolean {
  if (claims.iss !== ISSUER) return false;
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
  if (!audiences.includes(AUDIENCE)) return false;
  // §4.1.4: the token must not be accepted on or after exp; the leeway widens that. This verifier requires exp.
  if (claims.exp === undefined || !(now < claims.exp + TOLERANCE)) return false;
  // §4.1.5: nor before nbf, less the leeway.
  if (claims.nbf !== undefined && !(now >= claims.nbf - TOLERANCE)) return false;
  return true;
}

describe('jwtAuthenticate', () => {
  it('accepts a token exactly when RFC 7519 does, for random claims and clocks', async () => {
    const now = 1_800_000_000;
    const around = fc.integer({ min: now - 120, max: now + 120 });
    const claims = fc.record(
      {
        iss: fc.constantFrom(ISSUER, 'https://other.example/', ISSUER.slice(0, -1)),
        aud: fc.constantFrom<string | string[]>(AUDIENCE, 'https://other.example', [AUDIENCE, 'x'], ['x'], []),
        exp: around,
        nbf: around,
        iat: around,
        sub: fc.string({ maxLength: 8 }),
      },
      { requiredKeys: [] },
    );
    // The clock is often one second either side of where exp or nbf (with the leeway) flips the verdict.
    const edge = (at: number | undefined, sign: number) =>
      at === undefined ? fc.constant(now) : fc.integer({ min: -1, max: 1 }).map((step) => at + sign * TOLERANCE + step);
    const claimsAndClock = claims.chain((payload) =>
      fc.tuple(fc.constant(payload), fc.oneof(fc.integer({ min: now - 200, max: now + 200 }), edge(payload.exp, 1), edge(payload.nbf, -1))),
    );
    await fc.assert(
      fc.asyncProperty(claimsAndClock, fc.integer({ min: 0, max: 999 }), async ([payload, second], millis) => {
        const authenticate = verifier({ now: () => second * 1000 + millis });
        const verdict = await authenticate(await sign(payload), noRequest);
        expect(verdict === true).toBe(reference(payload, second));
        if (verdict !== true) expect(verdict).toEqual({ refused: 'invalid-token' });
      }),
      { numRuns: 150 },
    );
  });

  it('never accepts a token whose header, payload or signature was changed', async () => {
    const token = await sign({ iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 });
    const authenticate = verifier();
    expect(await authenticate(token, noRequest)).toBe(true);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
        async (at, character) => {
          fc.pre(token[at] !== '.' && token[at] !== character);
          const changed = token.slice(0, at) + character + token.slice(at + 1);
          // The last character of a segment may carry padding bits only: the same bytes, the same token.
          fc.pre(Buffer.from(changed.split('.')[Math.min(2, changed.slice(0, at).split('.').length - 1)]!, 'base64url').length > 0);
          const same = changed.split('.').every((part, index) => Buffer.from(part, 'base64url').equals(Buffer.from(token.split('.')[index]!, 'base64url')));
          fc.pre(!same);
          expect(await authenticate(changed, noRequest)).not.toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses alg none, HS256 signed with the public key, and an unknown kid, as invalid tokens', async () => {
    const claims = { iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 };
    const unsecured = `${base64url(JSON.stringify({ alg: 'none', kid: 'es' }))}.${base64url(JSON.stringify(claims))}.`;
    const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: 'rs' }).sign(new TextEncoder().encode(rsa.spki));
    const confusedJwk = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: 'rs' }).sign(new TextEncoder().encode(JSON.stringify(rsa.publicJwk)));
    const authenticate = verifier();
    for (const token of [unsecured, confused, confusedJwk, await sign(claims, 'nobody'), 'not-a-jwt', 'a.b.c']) {
      expect(await authenticate(token, noRequest)).toEqual({ refused: 'invalid-token' });
    }
    const rsaSigned = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'rs' }).sign(rsa.privateKey);
    expect(await authenticate(rsaSigned, noRequest)).toBe(true);
    expect(await verifier({ algorithms: ['ES256'] })(rsaSigned, noRequest)).toEqual({ refused: 'invalid-token' });
  });

  it('requires every scope of requiredScope, from scope or scp, and says which is missing with 403', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const authenticate = verifier({ requiredScope: 'plants:write' });
    expect(await authenticate(await sign({ iss: ISSUER, aud: AUDIENCE, exp, scope: 'openid plants:write' }), noRequest)).toBe(true);
    expect(await authenticate(await sign({ iss: ISSUER, aud: AUDIENCE, exp, scp: ['plants:write'] }), noRequest)).toBe(true);
    expect(await authenticate(await sign({ iss: ISSUER, aud: AUDIENCE, exp, scope: 'plants:read' }), noRequest)).toEqual({
      refused: 'insufficient-scope',
      scope: 'plants:write',
    });
    // A token that is not valid is 401 whatever its scopes: the scope is read only from a verified token.
    expect(await authenticate(await sign({ iss: 'x', aud: AUDIENCE, exp, scope: 'plants:read' }), noRequest)).toEqual({ refused: 'invalid-token' });
    expect(authenticate.describes).toEqual({ bearerFormat: 'JWT', refusals: ['insufficient-scope'] });
  });

  it('refuses options that cannot work when it is built', () => {
    const keys = [{ kty: 'EC' }];
    const cases: [Partial<JwtAuthenticateOptions>, RegExp][] = [
      [{ issuer: '' }, /issuer/],
      [{ audience: [] }, /audience/],
      [{ keys: undefined }, /exactly one of `jwksUrl` and `keys`/],
      [{ jwksUrl: 'https://issuer.example/jwks' }, /exactly one/],
      [{ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }, /symmetric/],
      [{ keys: [{ kty: 'EC', d: 'x' }] }, /private key/],
      [{ keys, algorithms: ['HS256' as never] }, /algorithms/],
      [{ keys, algorithms: ['none' as never] }, /algorithms/],
      [{ keys, clockToleranceSeconds: -1 }, /clockToleranceSeconds/],
      [{ keys, requiredScope: ' ' }, /requiredScope/],
      [{ keys, requiredScope: 7 as never }, /requiredScope/],
      [{ keys: undefined, jwksUrl: 'file:///etc/jwks.json' }, /jwksUrl/],
    ];
    for (const [options, message] of cases) expect(() => verifier(options), message.source).toThrow(message);
  });
});
