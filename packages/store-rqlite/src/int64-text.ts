// Runs anywhere (fetch only): plain number work, no I/O.
import { INT64_MAX, INT64_MIN } from '@plant-store/core';

/**
 * The id as the decimal text rqlite is sent. rqlite reads and writes JSON
 * numbers as doubles on the way through, so an integer past 2^53 would be
 * rounded; text is exact, and SQLite makes it an integer (`CAST(? AS INTEGER)`).
 *
 * @example
 * int64Text(2n ** 63n - 1n) // '9223372036854775807'
 * @throws RangeError when `id` is not a bigint in the int64 range.
 */
export function int64Text(id: bigint): string {
  if (typeof id !== 'bigint' || id < INT64_MIN || id > INT64_MAX) throw new RangeError(`createRqliteStore: id must be an int64 bigint, got ${String(id)}`);
  return id.toString();
}
