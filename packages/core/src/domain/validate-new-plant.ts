// Runs anywhere (no runtime API): a parsed NewPlant checked against its valibot schema.
import * as v from 'valibot';
import { fail, type Result } from './failure.ts';
import { INT64_MAX, INT64_MIN, NewPlantSchema, type NewPlant } from './schemas.ts';

const ID_EXPECTED = `expected an integer from ${INT64_MIN} to ${INT64_MAX}`;
const EXPECTED: Readonly<Record<keyof NewPlant, string>> = {
  id: ID_EXPECTED,
  name: 'expected a string',
  tag: 'expected a string',
};

/**
 * A parsed JSON body, its id already exact (a `bigint` where it was an
 * integer), checked against {@link NewPlantSchema}: the validated plant, or
 * the failure in the contract's order (a missing field, 1003, before a wrong
 * one, 1004). The common valid body is recognised by hand first, with
 * exactly the schema's output (pinned by a property in
 * validate-new-plant.test.ts); valibot decides everything else, and its
 * issues name the failure.
 */
export function validateNewPlant(input: Record<string, unknown>): Result<NewPlant> {
  const { id, name, tag } = input;
  if (typeof id === 'bigint' && typeof name === 'string' && id >= INT64_MIN && id <= INT64_MAX) {
    if (tag === undefined && !('tag' in input)) return { ok: true, value: { id, name } };
    if (typeof tag === 'string') return { ok: true, value: { id, name, tag } };
  }
  const parsed = v.safeParse(NewPlantSchema, input);
  if (parsed.success) return { ok: true, value: parsed.output };

  let invalid: keyof NewPlant | undefined;
  for (const issue of parsed.issues) {
    const field = issue.path?.[0]?.key as keyof NewPlant;
    if (!Object.hasOwn(input, field)) return fail('field-missing', `${field}: missing; ${EXPECTED[field]}`);
    invalid ??= field;
  }
  return fail('field-invalid', `${invalid}: ${EXPECTED[invalid!]}`);
}
