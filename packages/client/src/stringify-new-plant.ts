import { stringify } from 'lossless-json';
import { ErrorCode } from './error-code.ts';
import type { NewPlant } from './plant.ts';
import { PlantStoreError } from './plant-store-error.ts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** `JSON.rawJSON` (Node 22+, Bun, Deno, current browsers), typed here since TypeScript's ES2022 lib predates it. */
type RawJson = (text: string) => unknown;
const nativeRawJson = (JSON as { rawJSON?: RawJson }).rawJSON;

/** How a request body is written: the runtime's `JSON.rawJSON`, or lossless-json where it is missing. */
export type Serializer = 'rawJSON' | 'lossless-json';

/** The serializer this runtime uses; reported so that tests can show which path ran. */
export const serializer: Serializer = typeof nativeRawJson === 'function' ? 'rawJSON' : 'lossless-json';

function refuse(message: string): PlantStoreError {
  return new PlantStoreError({ code: ErrorCode.InvalidInput, message });
}

/**
 * The exact int64 of `id`, or why it cannot be sent. A `number` past 2^53 − 1
 * is refused rather than sent: its digits are already rounded (2^53 + 1 reads
 * as 2^53), so the plant created would carry another id than the caller meant.
 */
export function toInt64(id: unknown): bigint | PlantStoreError {
  if (typeof id === 'bigint') {
    return id >= INT64_MIN && id <= INT64_MAX ? id : refuse(`id: ${id} is outside int64 (${INT64_MIN} to ${INT64_MAX})`);
  }
  if (typeof id === 'number') {
    if (Number.isSafeInteger(id)) return BigInt(id);
    if (Number.isInteger(id)) {
      return refuse(
        `id: the number ${id} is beyond Number.MAX_SAFE_INTEGER (2^53 - 1) and has lost precision; pass the id as a bigint (e.g. ${BigInt(id)}n is what this number holds)`,
      );
    }
    return refuse(`id: expected an integer, got ${id}`);
  }
  return refuse(`id: expected a bigint or a safe integer number, got ${id === null ? 'null' : typeof id}`);
}

/**
 * The JSON body of a create, with the id's exact digits: through
 * `JSON.rawJSON` where the runtime has it, else through lossless-json, which
 * writes a bigint as its digits. Both write strings as `JSON.stringify` does
 * (lone surrogates escaped), so the bytes sent are the same either way. An
 * input that cannot be sent exactly is returned as an `invalid-input` error.
 */
export function stringifyNewPlant(plant: NewPlant, rawJson: RawJson | undefined = nativeRawJson): string | PlantStoreError {
  if (typeof plant !== 'object' || plant === null) return refuse('plant: expected an object with id, name and an optional tag');
  const id = toInt64(plant.id);
  if (id instanceof PlantStoreError) return id;
  const { name, tag } = plant;
  if (typeof name !== 'string') return refuse(`name: expected a string, got ${name === null ? 'null' : typeof name}`);
  if (tag !== undefined && typeof tag !== 'string') return refuse(`tag: expected a string or undefined, got ${tag === null ? 'null' : typeof tag}`);
  // Only the three known keys are sent: the server ignores others, so sending them would only leak data.
  if (rawJson !== undefined) {
    const raw = rawJson(id.toString());
    return JSON.stringify(tag === undefined ? { id: raw, name } : { id: raw, name, tag });
  }
  return stringify(tag === undefined ? { id, name } : { id, name, tag })!;
}
