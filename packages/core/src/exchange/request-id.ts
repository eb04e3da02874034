// Runs anywhere: the `x-request-id` of a request, taken when sane, else a new UUID (crypto.randomUUID, which every runtime has).
/** Longest `X-Request-Id` taken from a request; a longer one is replaced. */
export const MAX_REQUEST_ID_LENGTH = 128;

// Characters that need no quoting or escaping in a header, a log line or JSON,
// and that cover UUIDs, ULIDs, hex trace ids and base64: an id a client sends
// can then be written anywhere as it is, and cannot forge a log line.
const REQUEST_ID = /^[A-Za-z0-9+/=._:-]{1,128}$/;

/**
 * Whether `value` is an `X-Request-Id` the handler takes from a request and
 * echoes unchanged: 1 to {@link MAX_REQUEST_ID_LENGTH} characters of
 * `A-Z a-z 0-9 + / = . _ : -`. Anything else (empty, too long, a space, a
 * quote, a control character, two joined headers) is replaced by a new id.
 *
 * @example
 * isRequestId('4f0c2a8e-7d1b-4c55-9a51-0b8e2d3f6a71'); // true
 * isRequestId('abc, def'); // false: two joined headers
 */
export function isRequestId(value: string): boolean {
  return REQUEST_ID.test(value);
}

/**
 * The request id of a request: its `X-Request-Id` when {@link isRequestId}
 * accepts it, else a new random UUID (version 4).
 *
 * @param header The request's `X-Request-Id` header, if any.
 */
export function requestIdOf(header: string | undefined): string {
  return header !== undefined && REQUEST_ID.test(header) ? header : crypto.randomUUID();
}
