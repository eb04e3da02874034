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
  | 'unauthenticated'
  | 'token-rejected'
  | 'not-found'
  | 'method-not-allowed'
  | 'conflict'
  | 'body-too-large'
  | 'unsupported-media-type'
  | 'internal'
  | 'storage-unavailable'
  | 'storage-full';

/** The HTTP status and the stable numeric `error` code a client can branch on. */
export interface ErrorEntry {
  readonly status: number;
  readonly code: number;
}

/**
 * The one mapping from failure kinds to HTTP statuses and error codes
 * (SPEC.md, "Status codes and the Error body").
 */
export const errorTable = {
  'body-missing': { status: 400, code: 1000 },
  'invalid-json': { status: 400, code: 1001 },
  'not-an-object': { status: 400, code: 1002 },
  'field-missing': { status: 400, code: 1003 },
  'field-invalid': { status: 400, code: 1004 },
  unauthenticated: { status: 401, code: 1100 },
  'token-rejected': { status: 401, code: 1101 },
  'not-found': { status: 404, code: 1200 },
  'method-not-allowed': { status: 405, code: 1201 },
  conflict: { status: 409, code: 1300 },
  'body-too-large': { status: 413, code: 1400 },
  'unsupported-media-type': { status: 415, code: 1401 },
  internal: { status: 500, code: 1500 },
  'storage-unavailable': { status: 503, code: 1501 },
  'storage-full': { status: 507, code: 1502 },
} as const satisfies Record<ErrorKind, ErrorEntry>;
