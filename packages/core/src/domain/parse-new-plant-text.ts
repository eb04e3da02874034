// Runs anywhere (no runtime API): a create's decoded body to a validated NewPlant by the full path, or the failure its client gets.
import { describeJsonError } from './describe-json-error.ts';
import { fail, type Result } from './failure.ts';
import { findMemberSource } from './find-member-source.ts';
import { parseInt64Literal } from './parse-int64-literal.ts';
import type { NewPlant } from './schemas.ts';
import { validateNewPlant } from './validate-new-plant.ts';

// A number literal that JSON.parse might not keep exactly: one with a fraction or
// an exponent, or with 16 or more digits (every integer of up to 15 digits is
// below 2^53). Matching inside strings only costs the exact path, never correctness.
const INEXACT_NUMBER = /[:,[]\s*-?(?:\d+[.eE]|\d{16})/;

/**
 * The full path of `parseNewPlant` for any decoded body (valid UTF-8,
 * a leading BOM dropped): `JSON.parse`, an object (1002), the exact id, then
 * the schema's required fields (1003) and types and ranges (1004); JSON
 * syntax it refuses with 1001. Only bodies that might hold an inexact number
 * pay for reading the id's digits.
 *
 * @example
 * parseNewPlantText('{"id":9007199254740993,"name":"Fern"}'); // { ok: true, value: { id: 9007199254740993n, name: 'Fern' } }
 */
export function parseNewPlantText(text: string): Result<NewPlant> {
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

function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
