// Runs in vitest on Node: unit tests of usable-keys.ts, with keys made by node:crypto.
import { generateKeyPairSync } from 'node:crypto';
import type { JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { usableKeys } from './usable-keys.ts';

const rsa = (bits: number, kid: string, extra: Partial<JWK> = {}): JWK => ({
  ...(generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' }) as JWK),
  kid,
  ...extra,
});
const noKid = ({ kid: _, ...rest }: JWK): JWK => rest;
const ec = (kid: string): JWK => ({ ...(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as JWK), kid });

describe('usableKeys', () => {
  it('leaves out the keys a token could pick but not be verified with, and keeps every other key as it is', async () => {
    const good = rsa(2048, 'good', { alg: 'RS256', use: 'sig' });
    const keys = [
      good,
      rsa(1024, 'weak'),
      { ...good, kid: 'broken', n: 'AAAA' },
      ec('curve'),
      // No token can pick these: an encryption key, a symmetric one.
      rsa(1024, 'encryption', { use: 'enc', alg: 'RSA-OAEP' }),
      { kty: 'oct', k: 'c2VjcmV0', kid: 'secret' },
      noKid({ ...ec('broken-curve'), x: 'AAAA' }),
    ];
    const { jwks, leftOut } = await usableKeys({ keys });
    expect(jwks.keys.map((key) => key.kid)).toEqual(['good', 'curve', 'encryption', 'secret']);
    expect(leftOut.map(({ key }) => key)).toEqual(['weak', 'broken', '#6']);
    expect(leftOut[0]!.reason).toBe('an RSA modulus of 1024 bits, under 2048');
  });

  it('hands a set whose keys are all usable back as it came', async () => {
    const set = { keys: [rsa(2048, 'a'), ec('b')] };
    expect((await usableKeys(set)).jwks).toBe(set);
  });
});
