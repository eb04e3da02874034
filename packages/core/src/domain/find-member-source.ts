// Runs anywhere (no runtime API): where a top-level member's value lies in a JSON text, for its exact int64.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/**
 * Returns the source text of the number that is the value of `key` in the
 * top-level object of `json`, or `undefined` when that value is not a number.
 * When the key repeats, the last one counts, as in `JSON.parse`.
 *
 * `json` must already have been accepted by `JSON.parse`: this is a scanner, not
 * a validator. It exists because `JSON.parse` rounds integers beyond 2^53 and
 * cannot hand back the digits on every runtime we support.
 */
export function findMemberSource(json: string, key: string): string | undefined {
  const quotedKey = JSON.stringify(key);
  const length = json.length;
  let depth = 0;
  let found: string | undefined;
  let i = 0;
  while (i < length) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      i++;
      for (let d = json.charCodeAt(i); d !== QUOTE; d = json.charCodeAt(i)) i += d === BACKSLASH ? 2 : 1;
      i++;
      if (depth !== 1) continue;
      let j = i;
      while (isWhitespace(json.charCodeAt(j))) j++;
      if (json.charCodeAt(j) !== COLON) continue;
      const name = json.slice(start, i);
      // Escaped spellings such as "\u0069d" name the same key.
      if (name !== quotedKey && !(name.includes('\\') && JSON.parse(name) === key)) continue;
      j++;
      while (isWhitespace(json.charCodeAt(j))) j++;
      let end = j;
      while (end < length && isNumberChar(json.charCodeAt(end))) end++;
      found = end > j ? json.slice(j, end) : undefined;
      i = end > j ? end : j;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    i++;
  }
  return found;
}
