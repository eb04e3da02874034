// Runs anywhere: plain data.

/**
 * The signature algorithms a JWT may be verified with: the asymmetric ones of
 * RFC 7518 and RFC 8037 only. `none` and the HMAC algorithms (HS256/384/512)
 * are not here, so a token can never be "signed" with nothing, nor with an
 * issuer's public key used as an HMAC secret (algorithm confusion).
 */
export const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

/** One of {@link JWT_ALGORITHMS}. */
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/** Whether `name` is one of {@link JWT_ALGORITHMS}. */
export function isJwtAlgorithm(name: unknown): name is JwtAlgorithm {
  return (JWT_ALGORITHMS as readonly unknown[]).includes(name);
}
