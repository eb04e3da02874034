// Runs anywhere: plain data.

/**
 * Thrown by the key lookup of a JWKS cache, and turned into the verifier's
 * `unavailable` refusal: the keys that could check a token cannot be had now
 * (none were ever fetched, or a refetch for an unknown key failed), so the
 * client should retry rather than be told its token is bad.
 */
export class KeysUnavailable extends Error {
  /** Whole seconds until the cache may try the issuer again; at least 1. */
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super("the issuer's keys cannot be fetched now");
    this.name = 'KeysUnavailable';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
