// Runs anywhere (no runtime API): whether a compact JWS spells each of its parts the one way base64url allows.

/** The base64url alphabet's value of a character code, or -1 outside it (RFC 4648 §5). */
function sextet(code: number): number {
  if (code >= 65 && code <= 90) return code - 65; // A-Z
  if (code >= 97 && code <= 122) return code - 71; // a-z
  if (code >= 48 && code <= 57) return code + 4; // 0-9
  if (code === 45) return 62; // -
  if (code === 95) return 63; // _
  return -1;
}

/**
 * Whether `token` is three dot-separated parts, each in base64url as RFC 7515
 * §2 writes it: the URL-safe alphabet, no `=` padding, and no bits set past
 * the last whole byte. The decoders jose uses ignore those bits and the
 * padding (`atob` on Node 24, `Uint8Array.fromBase64` on Bun and Deno), so
 * up to 16 spellings of one signature read as the same: each would verify,
 * and count as a token of its own where tokens are told apart by their text
 * (the rate limit, the memory of verified tokens).
 *
 * @example
 * isCanonicalJws('eyJhbGciOiJFUzI1NiJ9.e30.AA'); // true
 * isCanonicalJws('eyJhbGciOiJFUzI1NiJ9.e30.AB'); // false: the same byte as 'AA', spelt another way
 */
export function isCanonicalJws(token: string): boolean {
  let parts = 0;
  let start = 0;
  for (let end = 0; end <= token.length; end++) {
    if (end < token.length && token.charCodeAt(end) !== 46) continue;
    parts++;
    if (parts > 3 || !isCanonicalPart(token, start, end)) return false;
    start = end + 1;
  }
  return parts === 3;
}

/** Whether `token.slice(start, end)` is canonical unpadded base64url. */
function isCanonicalPart(token: string, start: number, end: number): boolean {
  const length = end - start;
  for (let at = start; at < end; at++) if (sextet(token.charCodeAt(at)) < 0) return false;
  switch (length % 4) {
    case 0:
      return true;
    case 1:
      // Six bits: not even one byte.
      return false;
    case 2:
      // One byte in twelve bits: the last character's low four are unused.
      return sextet(token.charCodeAt(end - 1)) % 16 === 0;
    default:
      // Two bytes in eighteen bits: the last character's low two are unused.
      return sextet(token.charCodeAt(end - 1)) % 4 === 0;
  }
}
