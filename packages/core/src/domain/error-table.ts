// Runs anywhere (no runtime API): every way a request can fail: its status, code and message, in one exhaustive table.
/**
 * Every way a request can fail, by name. Adding a kind without an entry in
 * {@link errorTable} is a compile error, so no failure can reach a client
 * without a documented status and code.
 */
export type ErrorKind =
  | 'body-missing'
  | 'invalid-json'
  | 'not-an-object'
  | 'field-missing'
  | 'field-invalid'
  | 'malformed-request'
  | 'unauthenticated'
  | 'token-rejected'
  | 'insufficient-scope'
  | 'verifier-unavailable'
  | 'origin-not-allowed'
  | 'not-found'
  | 'method-not-allowed'
  | 'conflict'
  | 'body-too-large'
  | 'request-timeout'
  | 'headers-too-large'
  | 'unsupported-media-type'
  | 'internal'
  | 'storage-unavailable'
  | 'storage-full'
  | 'overloaded'
  | 'rate-limited';

/** The HTTP status, the stable numeric `error` code a client can branch on, and when it happens. */
export interface ErrorEntry {
  readonly status: number;
  readonly code: number;
  readonly when: string;
}

/**
 * The one mapping from failure kinds to HTTP statuses and error codes
 * (docs/contract.md, "Status codes and the Error body").
 */
export const errorTable = {
  'body-missing': { status: 400, code: 1000, when: 'no body, or an empty one' },
  'invalid-json': { status: 400, code: 1001, when: 'not valid UTF-8 or not valid JSON (the message says where)' },
  'not-an-object': { status: 400, code: 1002, when: 'valid JSON, but not an object' },
  'field-missing': { status: 400, code: 1003, when: 'a required field is missing (id, name)' },
  'field-invalid': { status: 400, code: 1004, when: 'a field has the wrong type or is out of range' },
  'malformed-request': { status: 400, code: 1005, when: 'not a valid HTTP request (standalone Node, Deno and workerd servers)' },
  unauthenticated: { status: 401, code: 1100, when: 'no credentials: no Authorization header, another scheme, or an empty token' },
  'token-rejected': { status: 401, code: 1101, when: 'the token was rejected' },
  'origin-not-allowed': { status: 403, code: 1102, when: 'a CORS preflight from an origin that is not allowed (only with the `cors` option)' },
  'not-found': { status: 404, code: 1200, when: 'no such route' },
  'insufficient-scope': { status: 403, code: 1103, when: 'the token is valid but does not grant the scope the verifier requires' },
  'verifier-unavailable': {
    status: 503,
    code: 1104,
    when: "the token cannot be checked now (the verifier cannot reach the issuer's keys and has none cached); retry after `Retry-After` seconds",
  },
  'method-not-allowed': { status: 405, code: 1201, when: 'method not allowed on this route' },
  conflict: { status: 409, code: 1300, when: 'a plant with this id exists with different content' },
  'body-too-large': { status: 413, code: 1400, when: 'body larger than the limit' },
  'request-timeout': {
    status: 408,
    code: 1402,
    when: 'the request was not received in time (standalone servers: Node, Deno and workerd, and the request deadline on Bun)',
  },
  'headers-too-large': { status: 431, code: 1403, when: 'the request headers are too large (standalone Node, Deno and workerd servers)' },
  'unsupported-media-type': { status: 415, code: 1401, when: 'Content-Type is not JSON' },
  internal: { status: 500, code: 1500, when: 'unexpected internal error' },
  'storage-unavailable': {
    status: 503,
    code: 1501,
    when: 'the storage failed, did not answer in time or is unavailable, or the server is shutting down; a create may have been stored, and retrying it with the same id, name and tag is safe',
  },
  'storage-full': { status: 507, code: 1502, when: 'the storage is full' },
  overloaded: {
    status: 503,
    code: 1503,
    when: 'the server is busy: too many requests in flight or its event loop is behind (only with the `overload` option); nothing was done, retry after `Retry-After` seconds',
  },
  'rate-limited': {
    status: 429,
    code: 1404,
    when: 'the token made more requests than its rate limit allows (only with the `rateLimit` option); nothing was done, retry after `Retry-After` seconds',
  },
} as const satisfies Record<ErrorKind, ErrorEntry>;
