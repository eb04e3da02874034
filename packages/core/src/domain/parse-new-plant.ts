// Runs anywhere (TextDecoder, which every runtime has): a create's body bytes to a validated NewPlant, or the failure its client gets.
import { describeUtf8Error } from './describe-utf8-error.ts';
import { fail, type Result } from './failure.ts';
import { parseNewPlantText } from './parse-new-plant-text.ts';
import { readCommonPlant } from './read-common-plant.ts';
import type { NewPlant } from './schemas.ts';

// A leading BOM is dropped (RFC 8259 §8.1 lets parsers ignore it); anything else
// that is not UTF-8 is refused rather than replaced with U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });
// The lenient decoder replaces every ill-formed sequence with U+FFFD (WHATWG Encoding,
// "UTF-8 decoder") and otherwise decodes exactly as the fatal one, BOM included: a text
// without U+FFFD proves the bytes UTF-8. Decoding so and searching the text costs less than
// what it replaces (an ASCII scan, then the lenient or the fatal decoder) on every runtime:
// 83 against 105 ns on Node 24, 48 against 71 on Bun 1.4, 113 against 134 on Deno 2.9 for a
// 54-byte ASCII body, and 133/184, 129/135, 211/345 ns with a name beyond ASCII; the search
// is all but free on a one-byte string, which cannot hold U+FFFD.
const lenient = new TextDecoder('utf-8');

/**
 * Turns request body bytes into a validated {@link NewPlant}, or the failure a
 * client should see, in the contract's order (docs/contract.md, "Order of checks"): UTF-8 and JSON syntax (1001), an object
 * (1002), required fields (1003), field types and ranges (1004).
 *
 * The id is exact over the whole int64 range. The common body (`id`, `name`
 * and `tag` once each, no escapes, a plain integer id, other members only of
 * ASCII scalars) is read by hand ({@link readCommonPlant}); any other body
 * costs one `JSON.parse`, and only bodies that might hold an inexact number
 * pay for reading the id's digits.
 */
export function parseNewPlant(bytes: Uint8Array): Result<NewPlant> {
  let text = lenient.decode(bytes);
  if (text.indexOf('\uFFFD') >= 0) {
    // A replaced byte, or a U+FFFD the body really holds: only the fatal decoder can tell.
    try {
      text = utf8.decode(bytes);
    } catch {
      return fail('invalid-json', describeUtf8Error(bytes));
    }
  }
  // By hand, a create costs 556 ns against 702 through JSON.parse and the schema on Node 24,
  // 219 against 326 on Bun 1.4, 570 against 707 on Deno 2.9 (bench/parse-new-plant.mjs).
  const plant = readCommonPlant(bytes, text);
  return plant === undefined ? parseNewPlantText(text) : { ok: true, value: plant };
}
