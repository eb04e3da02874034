// Runs on Node: whether an HTTP/2 request's head is one node:http would refuse over HTTP/1.1 (431).

/** node:http's `maxHeaderSize` (16 KiB): its parser refuses a head whose target, names and values come to this many bytes. */
const MOST_HEAD_BYTES = 16 * 1024;
/** Header fields node:http's parser takes in one head; the next is refused with 431. */
const MOST_HEAD_FIELDS = 1000;

/**
 * Whether the head of an HTTP/2 request (node:http2's `rawHeaders`, pseudo-headers first) is larger than node:http
 * takes over HTTP/1.1, counted as its parser counts: the target (`:path`), then every field's name and value, with
 * `:authority` as the `Host` field it stands for; more than 1,000 fields, or 16 KiB or more. The standalone server
 * answers such a request 431 (1403) on either protocol (docs/contract.md, HTTP/2), where node:http2 alone takes
 * larger heads and resets a stream of more than 128 entries, pseudo-headers included, unanswered. A `Cookie` split
 * into crumbs (RFC 9113 §8.2.3) counts as the one field HTTP/1.1 sends, its crumbs joined by `; `.
 *
 * @example
 * http2HeadTooLarge([':method', 'GET', ':path', '/', 'x-big', 'a'.repeat(17_000)]); // true
 */
export function http2HeadTooLarge(rawHeaders: readonly string[]): boolean {
  let bytes = 0;
  let fields = 0;
  let cookies = 0;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    if (name === ':path') bytes += value.length;
    else if (name === ':authority') {
      bytes += 'host'.length + value.length;
      fields++;
    } else if (name === 'cookie' && cookies > 0) {
      // A further crumb of the one Cookie field.
      bytes += '; '.length + value.length;
    } else if (name.charCodeAt(0) !== 58 /* ':' */) {
      bytes += name.length + value.length;
      fields++;
      if (name === 'cookie') cookies++;
    }
  }
  return fields > MOST_HEAD_FIELDS || bytes >= MOST_HEAD_BYTES;
}
