// Runs anywhere (no runtime API): the common create body read by hand, without JSON.parse of the whole body or the schema.
import { INT64_MAX, INT64_MIN, type NewPlant } from './schemas.ts';

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const ID = 1;
const NAME = 2;
const TAG = 4;

// Up to 15 digits, an integer is below 2^53 and adds up exactly as a double; int64 has 19 at most.
const SAFE_DIGITS = 15;
const INT64_DIGITS = 19;

/**
 * Reads the create body almost every client sends: one JSON object whose
 * members are `id`, `name` and optionally `tag`, each once, in any order,
 * with JSON whitespace anywhere between tokens, the id a plain integer
 * literal in the int64 range (no fraction, no exponent) and the strings
 * without escapes, and perhaps other members whose key and value (a string,
 * a number, true, false or null) are ASCII without escapes. Returns the
 * plant, exactly what the full path (`JSON.parse`, the exact id,
 * `NewPlantSchema`) makes of the same body, or `undefined` for any other
 * body, valid or not, which that path then reads, so that every failure and
 * every other body is answered there.
 *
 * The values are made once the whole body is read, so that a body left to
 * the full path costs no allocation here.
 *
 * `bytes` must be well-formed UTF-8 and `text` their decoding, a leading BOM
 * dropped. The structure is read from the bytes (a typed array is cheaper to
 * index than a string, and UTF-8 puts no byte below 0x80 inside a character
 * beyond U+007F); the strings are taken from the text.
 */
export function readCommonPlant(bytes: Uint8Array, text: string): NewPlant | undefined {
  const length = bytes.length;
  // The id as a double when it has up to 15 digits, else where its digits run in `text` (idEnd > 0).
  let idValue = 0;
  let idStart = 0;
  let idEnd = 0;
  let nameStart = 0;
  let nameEnd = 0;
  let tagStart = 0;
  let tagEnd = 0;
  let seen = 0;
  // Text index = byte index - shift: the BOM's three bytes are no character, and beyond
  // U+007F a character takes one more byte than UTF-16 units (U+10000 and above, two more).
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let shift = i;
  i = skipWhitespace(bytes, i);
  if (bytes[i] !== OPEN_BRACE) return undefined;
  i = skipWhitespace(bytes, i + 1);
  for (;;) {
    const field = fieldAt(bytes, i);
    // A member met before, where the last would win, is the full path's to read.
    if ((seen & field) !== 0) return undefined;
    seen |= field;
    if (field === 0) {
      i = otherMemberEnd(bytes, i);
      if (i < 0) return undefined;
    } else {
      i = skipWhitespace(bytes, i + (field === ID ? 4 : field === NAME ? 6 : 5));
      if (bytes[i] !== COLON) return undefined;
      i = skipWhitespace(bytes, i + 1);
    }
    if (field === ID) {
      const start = i;
      if (bytes[i] === MINUS) i++;
      const first = i;
      let value = 0;
      for (let c = bytes[i]!; c >= ZERO && c <= NINE; c = bytes[++i]!) value = value * 10 + (c - ZERO);
      const digits = i - first;
      // No digit, or a leading zero ("01"), is not JSON; more digits than int64 has are out of its
      // range. A fraction or an exponent (5.0, 5e2) is no comma or brace, below: the exact reader's.
      if (digits === 0 || (digits > 1 && bytes[first] === ZERO) || digits > INT64_DIGITS) return undefined;
      if (digits <= SAFE_DIGITS) idValue = first === start ? value : -value;
      else {
        idStart = start - shift;
        idEnd = i - shift;
      }
    } else if (field !== 0) {
      const end = closingQuote(bytes, i);
      if (end < 0) return undefined;
      const start = i + 1 - shift;
      shift += quotedShift;
      if (field === NAME) {
        nameStart = start;
        nameEnd = end - shift;
      } else {
        tagStart = start;
        tagEnd = end - shift;
      }
      i = end + 1;
    }
    i = skipWhitespace(bytes, i);
    const c = bytes[i];
    if (c === COMMA) {
      i = skipWhitespace(bytes, i + 1);
      continue;
    }
    if (c !== CLOSE_BRACE || skipWhitespace(bytes, i + 1) !== length) return undefined;
    break;
  }
  if ((seen & (ID | NAME)) !== (ID | NAME)) return undefined;
  const id = idEnd === 0 ? BigInt(idValue) : int64At(text, idStart, idEnd);
  if (id === undefined) return undefined;
  const copy = text.length - (nameEnd - nameStart) - (tagEnd - tagStart) > SLICE_SLACK;
  const name = copy ? copyOf(text, nameStart, nameEnd) : text.slice(nameStart, nameEnd);
  if ((seen & TAG) === 0) return { id, name };
  return { id, name, tag: copy ? copyOf(text, tagStart, tagEnd) : text.slice(tagStart, tagEnd) };
}

// What the last closingQuote() added to the shift between byte and text positions: set there,
// read at once by its caller, so that the scan returns one number and allocates nothing.
let quotedShift = 0;

/**
 * Where the string literal at `i` ends (its closing quote) when it holds no escape, which
 * needs decoding, and no control character, which is not JSON; else -1, past the end too.
 * Sets {@link quotedShift}: beyond U+007F a character takes one more byte than UTF-16 units
 * (U+10000 and above, two more).
 */
function closingQuote(bytes: Uint8Array, i: number): number {
  if (bytes[i] !== QUOTE) return -1;
  let shift = 0;
  for (let c = bytes[++i]!; c !== QUOTE; c = bytes[++i]!) {
    if (c >= 0x80) {
      if (c < 0xc0) shift++;
      else if (c >= 0xf0) shift--;
    } else if (!(c >= SPACE) || c === BACKSLASH) return -1;
  }
  quotedShift = shift;
  return i;
}

/**
 * Just past another member at `i` (its key, colon and value), which the schema drops, when
 * its key and its value (a string, a number, true, false or null) are ASCII without escapes,
 * so that no text position moves; else -1, and the full path reads the body.
 */
function otherMemberEnd(bytes: Uint8Array, i: number): number {
  const keyEnd = asciiStringEnd(bytes, i);
  if (keyEnd < 0) return -1;
  i = skipWhitespace(bytes, keyEnd);
  if (bytes[i] !== COLON) return -1;
  i = skipWhitespace(bytes, i + 1);
  return bytes[i] === QUOTE ? asciiStringEnd(bytes, i) : literalEnd(bytes, i);
}

/** The integer whose digits run from `start` to `end` in `text`, when it is in the int64 range. */
function int64At(text: string, start: number, end: number): bigint | undefined {
  const id = BigInt(text.slice(start, end));
  return id < INT64_MIN || id > INT64_MAX ? undefined : id;
}

/**
 * Characters beyond a plant's strings up to which its body's text may be kept alive by them.
 * A slice of the text may keep the whole text alive for as long as the store keeps the plant
 * (1,000 slices of 100 kB bodies held 100 MB: on Node 24 and Deno from 13 characters, on Bun
 * 1.4 already at 8). Where the text is at most this much longer than the strings kept, that
 * keeps at most 128 bytes more alive per plant, and the strings are slices; else each literal
 * goes through JSON.parse, which copies what it reads (as the full path's JSON.parse of the
 * whole body does) and costs about 120 ns more per create on Node 24, 55 on Bun 1.4 and 150
 * on Deno 2.9 for a create's two strings.
 */
const SLICE_SLACK = 64;

/** The string literal whose characters run from `start` to `end` in `text`, as a string of its own. */
function copyOf(text: string, start: number, end: number): string {
  return JSON.parse(text.slice(start - 1, end + 1)) as string;
}

/** Just past the string at `i` when it is ASCII without escapes, else -1. */
function asciiStringEnd(bytes: Uint8Array, i: number): number {
  if (bytes[i] !== QUOTE) return -1;
  for (let c = bytes[++i]!; c !== QUOTE; c = bytes[++i]!) if (!(c >= SPACE && c < 0x80) || c === BACKSLASH) return -1;
  return i + 1;
}

/** Just past the JSON number, true, false or null at `i`, else -1. */
function literalEnd(bytes: Uint8Array, i: number): number {
  const c = bytes[i];
  if (c === 0x74) return bytes[i + 1] === 0x72 && bytes[i + 2] === 0x75 && bytes[i + 3] === 0x65 ? i + 4 : -1;
  if (c === 0x66) return bytes[i + 1] === 0x61 && bytes[i + 2] === 0x6c && bytes[i + 3] === 0x73 && bytes[i + 4] === 0x65 ? i + 5 : -1;
  if (c === 0x6e) return bytes[i + 1] === 0x75 && bytes[i + 2] === 0x6c && bytes[i + 3] === 0x6c ? i + 4 : -1;
  if (c === MINUS) i++;
  if (bytes[i] === ZERO) i++;
  else if (isDigit(bytes[i])) while (isDigit(bytes[++i]));
  else return -1;
  if (bytes[i] === 0x2e) {
    if (!isDigit(bytes[++i])) return -1;
    while (isDigit(bytes[++i]));
  }
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    if (bytes[++i] === 0x2b || bytes[i] === MINUS) i++;
    if (!isDigit(bytes[i])) return -1;
    while (isDigit(bytes[++i]));
  }
  return i;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= ZERO && c <= NINE;
}

/** Which of the three keys the quoted key at `i` spells without escapes, or 0. */
function fieldAt(bytes: Uint8Array, i: number): number {
  if (bytes[i] !== QUOTE) return 0;
  const c = bytes[i + 1];
  if (c === 0x69) return bytes[i + 2] === 0x64 && bytes[i + 3] === QUOTE ? ID : 0;
  if (c === 0x6e) return bytes[i + 2] === 0x61 && bytes[i + 3] === 0x6d && bytes[i + 4] === 0x65 && bytes[i + 5] === QUOTE ? NAME : 0;
  if (c === 0x74) return bytes[i + 2] === 0x61 && bytes[i + 3] === 0x67 && bytes[i + 4] === QUOTE ? TAG : 0;
  return 0;
}

function skipWhitespace(bytes: Uint8Array, i: number): number {
  for (let c = bytes[i]; c === SPACE || c === LINE_FEED || c === CARRIAGE_RETURN || c === TAB; c = bytes[++i]);
  return i;
}
