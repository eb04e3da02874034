// Runs anywhere (no runtime API): createPlant: insert-if-absent against a store, within its timeout.
import { fail, type Result } from './failure.ts';
import { isThenable } from './is-thenable.ts';
import { StoreTimeoutError, withTimeout } from './with-timeout.ts';
import type { InsertResult, PlantStore } from './plant-store.ts';
import type { NewPlant, Plant } from './schemas.ts';

/** Options of {@link createPlant}. */
export interface CreatePlantOptions {
  /**
   * How long the store may take; past it (noticed within half that again)
   * the create fails as `storage-unavailable`. Default: no limit.
   */
  readonly timeoutMs?: number;
}

/** A successful create: stored now, or the same plant stored earlier (a safe retry). */
export interface Created {
  readonly outcome: 'created' | 'replayed';
  readonly plant: Plant;
}

/**
 * Creates a plant, idempotently per id: the same id with the same name and tag
 * again is a replay (nothing changes); with other content it is a conflict and
 * the stored plant stays as it was. Never throws: a store that throws, rejects
 * or misses `timeoutMs` becomes a `storage-unavailable` failure carrying the
 * error as its `cause`.
 *
 * @example
 * const result = await createPlant(store, { id: 7n, name: 'Fern' });
 * if (result.ok) console.log(result.value.outcome); // 'created'
 */
export async function createPlant(store: PlantStore, newPlant: NewPlant, options: CreatePlantOptions = {}): Promise<Result<Created>> {
  return startCreatePlant(store, newPlant, options);
}

/**
 * {@link createPlant}, answering at once when the store does: the handler's
 * path, where a synchronous store (the memory store) then costs no turn.
 */
export function startCreatePlant(store: PlantStore, newPlant: NewPlant, options: CreatePlantOptions = {}): Result<Created> | Promise<Result<Created>> {
  const plant: Plant = newPlant.tag === undefined ? { name: newPlant.name } : { name: newPlant.name, tag: newPlant.tag };
  let insert: InsertResult | PromiseLike<InsertResult>;
  try {
    insert = store.insertIfAbsent(newPlant.id, plant);
  } catch (cause) {
    return storeFailed(cause);
  }
  // An in-process store answers at once: nothing to wait for, nothing to time out.
  if (!isThenable(insert)) return decide(insert, newPlant, plant);
  const waited = options.timeoutMs === undefined ? Promise.resolve(insert) : withTimeout(Promise.resolve(insert), options.timeoutMs);
  return waited.then((inserted) => decide(inserted, newPlant, plant), storeFailed);
}

// A store that gave up may still commit (a statement already sent), and one
// that failed cannot always tell whether it stored: say so, and that a retry,
// answered 200 if the plant is there, is safe (docs/contract.md, "Stores").
function storeFailed(cause: unknown): Result<never> {
  return fail('storage-unavailable', cause instanceof StoreTimeoutError ? STORE_LATE : STORE_FAILED, cause);
}

const STORE_FAILED = 'the plant store failed; retrying with the same id, name and tag is safe (200 if the plant was stored)';
const STORE_LATE = 'the plant store did not answer in time and the plant may still be stored; retrying with the same id, name and tag is safe';

function decide(inserted: InsertResult, newPlant: NewPlant, plant: Plant): Result<Created> {
  switch (inserted.status) {
    case 'inserted':
      return { ok: true, value: { outcome: 'created', plant } };
    case 'full':
      return fail('storage-full', 'the plant store is full', inserted.cause);
    case 'exists': {
      const { existing } = inserted;
      if (existing.name === plant.name && existing.tag === plant.tag) {
        return { ok: true, value: { outcome: 'replayed', plant } };
      }
      return fail('conflict', `id: a plant with id ${newPlant.id} already exists with a different name or tag`);
    }
  }
}
