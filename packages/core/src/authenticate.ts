import type { PlantRequest } from './http-types.ts';

/**
 * Decides whether a bearer token is accepted. May be async (a token service,
 * a database). Throwing is an internal error (500), never an acceptance.
 */
export type Authenticate = (token: string, request: PlantRequest) => boolean | Promise<boolean>;

/** The bearer credential in an `Authorization` header, as far as it goes. */
export type BearerCredential = { readonly kind: 'missing' } | { readonly kind: 'malformed' } | { readonly kind: 'token'; readonly token: string };

// RFC 6750 b64token: the only characters a bearer token can contain.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MISSING: BearerCredential = { kind: 'missing' };
const MALFORMED: BearerCredential = { kind: 'malformed' };

/**
 * Reads `Authorization: Bearer <token>` (scheme case-insensitive, RFC 7235).
 * No header, another scheme or an empty token is `missing` (401, code 1100);
 * a token that is not RFC 6750 `b64token` syntax, as when two headers were
 * joined, is `malformed` and rejected without asking the verifier (code 1101).
 */
export function readBearerCredential(authorization: string | undefined): BearerCredential {
  if (authorization === undefined) return MISSING;
  // The scheme is the six characters before the first space, or there is none.
  if (authorization.indexOf(' ') !== 6) return MISSING;
  if (!authorization.startsWith('Bearer') && authorization.slice(0, 6).toLowerCase() !== 'bearer') return MISSING;
  const token = authorization.slice(7).trim();
  if (token === '') return MISSING;
  return B64TOKEN.test(token) ? { kind: 'token', token } : MALFORMED;
}

/** Whether `token` has RFC 6750 `b64token` syntax, the only tokens a client can send. */
export function isBearerTokenSyntax(token: string): boolean {
  return B64TOKEN.test(token);
}
