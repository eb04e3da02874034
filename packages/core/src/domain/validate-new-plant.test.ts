import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { int64, outOfRangeInteger } from '@plant-store/testing';
import { NewPlantSchema } from './schemas.ts';
import { validateNewPlant } from './validate-new-plant.ts';

/** Any value a field of a parsed body may hold (an exact id, a string, more often than others), and some it may not. */
const fieldValue = fc.oneof(
  { arbitrary: int64(), weight: 4 },
  outOfRangeInteger(),
  { arbitrary: fc.string(), weight: 4 },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);

/** A parsed body: any of the three fields, present or absent, and other members. */
const body = fc
  .record({ id: fieldValue, name: fieldValue, tag: fieldValue, other: fc.dictionary(fc.string(), fieldValue, { maxKeys: 3 }) }, { requiredKeys: [] })
  .map(({ other, ...fields }) => ({ ...other, ...fields }) as Record<string, unknown>);

describe('validateNewPlant', () => {
  it('accepts exactly what NewPlantSchema accepts, with exactly its output', () => {
    fc.assert(
      fc.property(body, (input) => {
        const expected = v.safeParse(NewPlantSchema, input);
        const result = validateNewPlant(input);
        expect(result.ok).toBe(expected.success);
        if (result.ok && expected.success) {
          expect(result.value).toStrictEqual(expected.output);
          expect(Object.keys(result.value)).toEqual(Object.keys(expected.output));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the common valid bodies, with and without a tag, as the schema does', () => {
    for (const input of [
      { id: 1n, name: 'Monstera', tag: 'tropical' },
      { id: -(2n ** 63n), name: '' },
      { id: 2n ** 63n - 1n, name: 'Fern', tag: '', extra: true },
    ]) {
      expect(validateNewPlant(input)).toStrictEqual({ ok: true, value: v.parse(NewPlantSchema, input) });
    }
  });

  it('names a missing field before a wrong one', () => {
    expect(validateNewPlant({ id: 'x' })).toMatchObject({ ok: false, error: { kind: 'field-missing', message: expect.stringMatching(/^name: missing/) } });
    expect(validateNewPlant({ id: 2n ** 63n, name: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'field-invalid', message: expect.stringMatching(/^id: /) },
    });
  });
});
