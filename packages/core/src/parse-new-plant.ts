import { describeJsonError } from './describe-json-error.ts';
import { describeUtf8Error } from './describe-utf8-error.ts';
import { fail, type Result } from './failure.ts';
import { findMemberSource } from './find-member-source.ts';
import { parseInt64Literal } from './parse-int64-literal.ts';
import type { NewPlant } from './schemas.ts';
import { validateNewPlant } from './validate-new-plant.ts';

// A leading BOM is dropped (RFC 8259 §8.1 lets parsers ignore it); anything else
// that is not UTF-8 is refused rather than replaced with U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });
// ASCII is valid UTF-8 and decodes alike either way; Deno's lenient decoder
// takes it in about 100 ns against 210 ns for the fatal one (a 54-byte body),
// which costs 10 to 25 ns more on Node and Bun, the ASCII scan included.
const lenient = new TextDecoder('utf-8');

// A number literal that JSON.parse might not keep exactly: one with a fraction or
// an exponent, or with 16 or more digits (every integer of up to 15 digits is
// below 2^53). Matching inside strings only costs the exact path, never correctness.
const INEXACT_NUMBER = /[:,[]\s*-?(?:\d+[.eE]|\d{16})/;

/**
 * Turns request body bytes into a validated {@link NewPlant}, or the failure a
 * client should see, in the contract's order (docs/contract.md, "Order of checks"): UTF-8 and JSON syntax (1001), an object
 * (1002), required fields (1003), field types and ranges (1004).
 *
 * The id is exact over the whole int64 range. The common body (no fractions, no
 * exponents, no long numbers) costs one `JSON.parse`; only bodies that might hold
 * an inexact number pay for reading the id's digits.
 */
export function parseNewPlant(bytes: Uint8Array): Result<NewPlant> {
  let text: string;
  try {
    text = isAscii(bytes) ? lenient.decode(bytes) : utf8.decode(bytes);
  } catch {
    return fail('invalid-json', describeUtf8Error(bytes));
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail('invalid-json', describeJsonError(text));
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail('not-an-object', `body: expected a JSON object, got ${describeJsonType(json)}`);
  }

  const record = json as Record<string, unknown>;
  const id = record['id'];
  if (typeof id === 'number') {
    const exact = INEXACT_NUMBER.test(text) ? parseInt64Literal(findMemberSource(text, 'id') ?? '') : BigInt(id);
    // The parsed object is this call's own, so it can take the exact id in place.
    if (exact !== undefined) record['id'] = exact;
  }
  return validateNewPlant(record);
}

/** Whether every byte is below 0x80: no BOM, nothing the fatal decoder could refuse. */
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return false;
  return true;
}

function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
