// Runs anywhere with WebCrypto (Node 20+, Bun, Deno, workerd): the keys of a fetched key set that can verify a token.
import { importJWK, type JSONWebKeySet, type JWK } from 'jose';
import { isJwtAlgorithm, type JwtAlgorithm } from './jwt-algorithms.ts';

/** A key {@link usableKeys} left out, and why. */
export interface KeyLeftOut {
  /** Its `kid`, or its place in the set when it has none. */
  readonly key: string;
  readonly reason: string;
}

// The algorithm a key without `alg` is tried with: what its type and curve allow (RFC 7518 §6, RFC 8037).
const CURVES: Readonly<Record<string, JwtAlgorithm>> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512', Ed25519: 'EdDSA' };

/**
 * The keys of `jwks` that a token's verification could use, each imported
 * once to prove it: a key jose would pick for a token (an asymmetric key
 * whose `alg`, if any, is one of the JWT algorithms) but could not verify it
 * with (key material that does not import, an RSA modulus under the 2048
 * bits jose requires) is left out, so that its tokens are refused as of an
 * unknown key (401) rather than failing the server (500) at every request,
 * and a key set the issuer mends is fetched again as for a new kid. Other
 * keys (encryption keys, symmetric ones) are kept as they are: no token can
 * pick them.
 */
export async function usableKeys(jwks: JSONWebKeySet): Promise<{ readonly jwks: JSONWebKeySet; readonly leftOut: readonly KeyLeftOut[] }> {
  const leftOut: KeyLeftOut[] = [];
  const checked = await Promise.all(
    jwks.keys.map(async (jwk, index) => {
      const reason = await whyUnusable(jwk);
      if (reason !== undefined) leftOut.push({ key: typeof jwk.kid === 'string' ? jwk.kid : `#${index}`, reason });
      return reason === undefined;
    }),
  );
  return leftOut.length === 0 ? { jwks, leftOut } : { jwks: { keys: jwks.keys.filter((_, index) => checked[index]) }, leftOut };
}

/** Why a token's verification could not use `jwk`, or undefined when it could or no token can pick it. */
async function whyUnusable(jwk: JWK): Promise<string | undefined> {
  const alg = jwk.alg ?? (jwk.kty === 'RSA' ? 'RS256' : typeof jwk.crv === 'string' ? CURVES[jwk.crv] : undefined);
  if (!isJwtAlgorithm(alg) || (jwk.use !== undefined && jwk.use !== 'sig')) return undefined;
  try {
    const key = await importJWK(jwk, alg);
    const bits = (key as { algorithm?: { modulusLength?: unknown } }).algorithm?.modulusLength;
    if (typeof bits === 'number' && bits < 2048) return `an RSA modulus of ${bits} bits, under 2048`;
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
