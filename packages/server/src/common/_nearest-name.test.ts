// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { nearestName } from './_nearest-name.ts';

describe('nearestName', () => {
  it('counts insertions, deletions, replacements and swaps of neighbours, ignoring case', () => {
    expect(nearestName(['PLANT_STORE_TOKEN'], ['PORT', 'PLANT_STORE_TOKENS'])).toEqual({ name: 'PLANT_STORE_TOKENS', distance: 1 });
    expect(nearestName(['PLANT_STORE_DATABSE_URL'], ['PLANT_STORE_DATABASE_URL'])).toEqual({ name: 'PLANT_STORE_DATABASE_URL', distance: 1 });
    expect(nearestName(['plant_store_docs'], ['PLANT_STORE_DOCS'])).toEqual({ name: 'PLANT_STORE_DOCS', distance: 0 });
    expect(nearestName(['ab'], ['xyz'])).toEqual({ name: 'xyz', distance: 3 });
    expect(nearestName([''], ['abc'])).toEqual({ name: 'abc', distance: 3 });
  });

  it('takes the nearest of several spellings, and the first candidate of equals', () => {
    expect(nearestName(['PLANT_STORE_PORT', 'PORT'], ['HOST', 'PORT', 'PLANT_STORE_DOCS'])).toEqual({ name: 'PORT', distance: 0 });
    expect(nearestName(['AB'], ['AC', 'BB'])).toEqual({ name: 'AC', distance: 1 });
  });

  it('needs a candidate', () => {
    expect(() => nearestName(['A'], [])).toThrow(TypeError);
  });
});
