import { anyString, int64 } from '@plant-store/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonLosslessly } from './parse-json-losslessly.ts';
import { PlantStoreError } from './plant-store-error.ts';
import { serializer, stringifyNewPlant, toInt64 } from './stringify-new-plant.ts';

describe('stringifyNewPlant', () => {
  it('uses lossless-json where JSON.rawJSON is missing (Node 20), JSON.rawJSON elsewhere', () => {
    expect(serializer).toBe(typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function' ? 'rawJSON' : 'lossless-json');
  });

  it('writes exactly the id digits and the strings as JSON.stringify does, and nothing else (property)', () => {
    fc.assert(
      fc.property(int64(), anyString(), fc.option(anyString(), { nil: undefined }), (id, name, tag) => {
        const expected = `{"id":${id},"name":${JSON.stringify(name)}${tag === undefined ? '' : `,"tag":${JSON.stringify(tag)}`}}`;
        const withExtra = { id, name, tag, owner: 'not sent' };
        expect(stringifyNewPlant(withExtra)).toBe(expected);
        expect(stringifyNewPlant(withExtra, undefined)).toBe(expected);
        expect(parseJsonLosslessly(expected)).toEqual(tag === undefined ? { id: toPlainOrBig(id), name } : { id: toPlainOrBig(id), name, tag });
      }),
      { numRuns: 500 },
    );
  });

  it('writes a safe number id as the same digits as its bigint (property)', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (id) => {
        expect(stringifyNewPlant({ id, name: 'n' })).toBe(stringifyNewPlant({ id: BigInt(id), name: 'n' }));
      }),
    );
  });

  it('refuses what cannot be sent exactly, as an invalid-input value', () => {
    for (const id of [2 ** 53, 2 ** 63, 2n ** 63n, -(2n ** 63n) - 1n, 0.5]) {
      const refused = toInt64(id);
      expect(refused).toBeInstanceOf(PlantStoreError);
      expect((refused as PlantStoreError).code).toBe('invalid-input');
    }
    expect(toInt64(2 ** 53 + 1)).toMatchObject({ message: expect.stringContaining('9007199254740992n is what this number holds') });
    expect(stringifyNewPlant(null as never)).toBeInstanceOf(PlantStoreError);
  });
});

function toPlainOrBig(id: bigint): number | bigint {
  return Number.isSafeInteger(Number(id)) && BigInt(Number(id)) === id ? Number(id) : id;
}
