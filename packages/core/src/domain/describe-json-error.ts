// Runs anywhere (no runtime API): where and why a text is not JSON, for the 400's message.
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const ESCAPABLE = '"\\/bfnrtu';

const enum Expect {
  Value,
  Key,
  AfterValue,
}
const OBJECT = 0;
const ARRAY = 1;

/**
 * Finds where `json` stops being JSON (RFC 8259) and says so in a message that
 * is the same on every engine; engines word their own `JSON.parse` errors
 * differently. Called only after `JSON.parse` has thrown, so it need not be
 * fast, but it is iterative so that deep nesting cannot overflow the stack.
 *
 * @returns e.g. `invalid JSON at offset 9: unexpected "}"`
 */
export function describeJsonError(json: string): string {
  const offset = findJsonErrorOffset(json);
  if (offset === undefined) return 'invalid JSON: nested too deeply to parse';
  const what = offset >= json.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(json[offset])}`;
  return `invalid JSON at offset ${offset}: ${what}`;
}

function skipWhitespace(json: string, i: number): number {
  for (let c = json.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = json.charCodeAt(++i));
  return i;
}

/** Index just past a string starting at `i`, or the negated index of the offending character minus one. */
function scanString(json: string, i: number): number {
  i++;
  for (;;) {
    if (i >= json.length) return -json.length - 1;
    const c = json.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -i - 1;
    if (c === 0x5c) {
      const e = json[i + 1];
      if (e === undefined || !ESCAPABLE.includes(e)) return -(i + 1) - 1;
      if (e === 'u') {
        HEX4.lastIndex = i + 2;
        if (!HEX4.test(json)) return -(i + 2) - 1;
        i += 6;
      } else i += 2;
    } else i++;
  }
}

/** The offset of the first character that makes `json` not JSON, or `undefined` when it is JSON. */
export function findJsonErrorOffset(json: string): number | undefined {
  const stack: number[] = [];
  let expect = Expect.Value;
  let i = skipWhitespace(json, 0);
  for (;;) {
    if (expect === Expect.Key) {
      if (json.charCodeAt(i) !== 0x22) return i;
      const end = scanString(json, i);
      if (end < 0) return -end - 1;
      i = skipWhitespace(json, end);
      if (json.charCodeAt(i) !== 0x3a) return i;
      i = skipWhitespace(json, i + 1);
      expect = Expect.Value;
      continue;
    }
    if (expect === Expect.Value) {
      const c = json.charCodeAt(i);
      if (c === 0x7b || c === 0x5b) {
        const close = c === 0x7b ? 0x7d : 0x5d;
        i = skipWhitespace(json, i + 1);
        if (json.charCodeAt(i) === close) {
          i = skipWhitespace(json, i + 1);
          expect = Expect.AfterValue;
        } else {
          stack.push(c === 0x7b ? OBJECT : ARRAY);
          expect = c === 0x7b ? Expect.Key : Expect.Value;
        }
        continue;
      }
      let end: number;
      if (c === 0x22) {
        end = scanString(json, i);
        if (end < 0) return -end - 1;
      } else {
        const pattern = c === 0x2d || (c >= 0x30 && c <= 0x39) ? NUMBER : LITERAL;
        pattern.lastIndex = i;
        if (!pattern.test(json)) return i;
        end = pattern.lastIndex;
      }
      i = skipWhitespace(json, end);
      expect = Expect.AfterValue;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return i < json.length ? i : undefined;
    const c = json.charCodeAt(i);
    if (c === 0x2c) {
      i = skipWhitespace(json, i + 1);
      expect = top === OBJECT ? Expect.Key : Expect.Value;
    } else if (c === (top === OBJECT ? 0x7d : 0x5d)) {
      stack.pop();
      i = skipWhitespace(json, i + 1);
    } else return i;
  }
}
