// Runs anywhere (no runtime API): the storage interface every store implements.
import type { Plant } from './schemas.ts';

/**
 * What {@link PlantStore.insertIfAbsent} did: stored the plant, found another
 * plant under the id (and did not touch it), or had no room left.
 */
export type InsertResult =
  | { readonly status: 'inserted' }
  | { readonly status: 'exists'; readonly existing: Plant }
  /** `cause`: what filled up (a disk-full error, say), for `onError`; the client gets only the code. */
  | { readonly status: 'full'; readonly cause?: unknown };

/**
 * The storage interface. Implement it to keep plants anywhere; run the store
 * contract suite from `@plant-store/testing` to check the implementation.
 * Stores that do I/O return promises; `insertIfAbsent` may also answer at once.
 *
 * A store may throw or reject for an outage (the client gets 503, code 1501);
 * it answers `{ status: 'full' }` when a bound is reached (507, code 1502).
 *
 * @example
 * const store: PlantStore = {
 *   async insertIfAbsent(id, plant) { ... },
 *   async get(id) { ... },
 *   async ready() { ... }, // optional
 * };
 */
export interface PlantStore {
  /**
   * Stores `plant` under `id` unless a plant already has that id, atomically:
   * of any number of concurrent calls for one id, exactly one inserts. On a
   * clash it reports the stored plant, so the caller can tell a retry of the
   * same create from a conflicting one.
   */
  insertIfAbsent(id: bigint, plant: Plant): InsertResult | Promise<InsertResult>;
  /** The plant stored under `id`, if any. */
  get(id: bigint): Promise<Plant | undefined>;
  /**
   * Returns (or resolves) when the store can serve right now, throws (or
   * rejects) when it cannot: a cheap round trip to its database, such as
   * `select 1`. `GET {base}/readyz` asks it, within the handler's
   * `storeTimeoutMs`. Optional: a store without it counts as always ready.
   */
  ready?(): void | Promise<void>;
}
