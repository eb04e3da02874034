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
  return header !== undefined && REQUEST_ID.test(header) ? header : randomUuid();
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const POOL_BYTES = 4096;
let pool: Uint8Array | undefined;
let taken = POOL_BYTES;

/**
 * A random version 4 UUID, like `crypto.randomUUID()`, but from randomness
 * fetched 256 ids at a time (`crypto.getRandomValues`, a web global on every
 * runtime the core runs on): on some runtimes each `randomUUID()` is a call
 * into native code that costs a busy server a tenth of its throughput. The
 * pool is filled on first use, inside a request, where Workers allow it.
 */
export function randomUuid(): string {
  if (taken === POOL_BYTES) {
    crypto.getRandomValues((pool ??= new Uint8Array(POOL_BYTES)));
    taken = 0;
  }
  const b = pool!;
  const i = taken;
  taken += 16;
  // RFC 9562 §5.4: version 4 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
  const version = HEX[(b[i + 6]! & 0x0f) | 0x40]!;
  const variant = HEX[(b[i + 8]! & 0x3f) | 0x80]!;
  return (
    HEX[b[i]!]! +
    HEX[b[i + 1]!]! +
    HEX[b[i + 2]!]! +
    HEX[b[i + 3]!]! +
    '-' +
    HEX[b[i + 4]!]! +
    HEX[b[i + 5]!]! +
    '-' +
    version +
    HEX[b[i + 7]!]! +
    '-' +
    variant +
    HEX[b[i + 9]!]! +
    '-' +
    HEX[b[i + 10]!]! +
    HEX[b[i + 11]!]! +
    HEX[b[i + 12]!]! +
    HEX[b[i + 13]!]! +
    HEX[b[i + 14]!]! +
    HEX[b[i + 15]!]!
  );
}
