// Runs anywhere (no runtime API): the bearer verifier of a fixed list of tokens, compared in constant time.
import { isBearerTokenSyntax, type Authenticate } from './authenticate.ts';

/**
 * An {@link Authenticate} that accepts exactly the given tokens. The presented
 * token is compared with every configured token, every time, by a loop whose
 * length is the configured token's and whose work never depends on where the
 * two differ: the time taken says nothing about how close a guess was or
 * which token matched, on any runtime. It runs synchronously, in well under a
 * microsecond, where hashing through WebCrypto would cost a round trip to a
 * thread pool on every request.
 *
 * @throws TypeError when no token is given, when one is missing or empty (an
 *   unset environment variable), or when one could never be sent as a bearer token.
 * @example
 * createPlantHandler({ store, authenticate: staticTokens(['s3cret-token']) });
 */
export function staticTokens(tokens: readonly string[]): Authenticate {
  if (!Array.isArray(tokens) || tokens.length === 0) throw new TypeError('staticTokens: at least one token is required');
  for (const [index, token] of tokens.entries()) {
    // A token from an unset environment variable would otherwise be accepted
    // here and fail every request later with a 500.
    if (typeof token !== 'string' || token === '') {
      throw new TypeError(`staticTokens: token ${index} is ${token === '' ? 'empty' : String(token)}; is the variable that should hold it set?`);
    }
    if (!isBearerTokenSyntax(token)) {
      throw new TypeError('staticTokens: a token may only contain A-Z a-z 0-9 - . _ ~ + / and trailing =');
    }
  }
  const expected = [...tokens];
  return (token) => {
    let matches = 0;
    for (let i = 0; i < expected.length; i++) matches |= constantTimeEqual(token, expected[i]!);
    return matches === 1;
  };
}

/**
 * 1 when `presented` equals `secret`, else 0. Walks all of `secret` whatever
 * `presented` is, folding every difference and the length difference into
 * one value, with no early exit: a presented token of another length is
 * never read, and the secret is walked against itself instead, the same
 * work with the difference already set.
 */
export function constantTimeEqual(presented: string, secret: string): number {
  const length = secret.length;
  let difference = presented.length ^ length;
  const against = difference === 0 ? presented : secret;
  for (let i = 0; i < length; i++) difference |= secret.charCodeAt(i) ^ against.charCodeAt(i);
  return ((difference - 1) >>> 31) & 1;
}
