// Runs wherever the client runs: browsers, Node 20+, Bun, Deno and Workers (plain arithmetic, no runtime API).

/** Room for everything in an answer besides the plant's strings: an Error body, a Plant's keys, whitespace. */
export const ANSWER_BASE_BYTES = 64 * 1024;

/**
 * The most a JSON text can grow when a server writes the same strings its own
 * way: one byte sent raw (`a`) may come back as a six-byte escape (`\u0061`).
 */
const ESCAPE_GROWTH = 6;

/** UTF-8 bytes of `text`, counted rather than encoded: a request may be a megabyte. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair is one code point of four bytes.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The largest answer the client reads to a create whose body is
 * `requestBody`: 64 KiB, plus six times the request's UTF-8 size. A 200
 * echoes the plant's name and tag, which may be as large as the server's body
 * limit (1 MiB by default) and written with more escapes than were sent; an
 * Error body is small. Anything larger is no answer the contract allows, and
 * reading it whole would let whatever answers fill the caller's memory.
 */
export function answerByteLimit(requestBody: string): number {
  return ANSWER_BASE_BYTES + ESCAPE_GROWTH * utf8Length(requestBody);
}
