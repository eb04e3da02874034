// Runs anywhere with WebCrypto and WHATWG fetch: the package's entry, re-exports only.
export { jwtAuthenticate } from './jwt-authenticate.ts';
export { JWT_ALGORITHMS } from './jwt-algorithms.ts';
export { readScopes } from './read-scopes.ts';

export type { JwtAuthenticateOptions, PublicJwk } from './jwt-authenticate.ts';
export type { JwtAlgorithm } from './jwt-algorithms.ts';
