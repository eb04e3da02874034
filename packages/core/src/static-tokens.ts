import { isBearerTokenSyntax, type Authenticate } from './authenticate.ts';

const encoder = new TextEncoder();

function sha256(text: string): Promise<Uint8Array> {
  return crypto.subtle.digest('SHA-256', encoder.encode(text)).then((digest) => new Uint8Array(digest));
}

/**
 * An {@link Authenticate} that accepts exactly the given tokens. Both sides are
 * hashed with SHA-256 first, so every comparison runs over 32 bytes whatever
 * the lengths, and every configured token is compared every time: the time
 * taken says nothing about how close a guess was, on any runtime.
 *
 * @throws when no token is given, or one could never be sent as a bearer token.
 * @example
 * createPlantHandler({ store, authenticate: staticTokens(['s3cret-token']) });
 */
export function staticTokens(tokens: readonly string[]): Authenticate {
  if (tokens.length === 0) throw new TypeError('staticTokens: at least one token is required');
  for (const token of tokens) {
    if (!isBearerTokenSyntax(token)) {
      throw new TypeError('staticTokens: a token may only contain A-Z a-z 0-9 - . _ ~ + / and trailing =');
    }
  }
  const expected = Promise.all(tokens.map(sha256));
  return async (token) => {
    const [presented, digests] = await Promise.all([sha256(token), expected]);
    let matches = 0;
    for (const digest of digests) matches |= constantTimeEqual(presented, digest);
    return matches === 1;
  };
}

/** 1 when two 32-byte digests are equal, else 0, without an early exit. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): number {
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return ((difference - 1) >>> 31) & 1;
}
