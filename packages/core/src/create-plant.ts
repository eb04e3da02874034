import { fail, type Result } from './failure.ts';
import type { PlantStore } from './plant-store.ts';
import type { NewPlant, Plant } from './schemas.ts';

/** Options of {@link createPlant}. */
export interface CreatePlantOptions {
  /** Longest wait for the store; past it the create fails as `storage-unavailable`. Default: no limit. */
  readonly timeoutMs?: number;
}

/** Raised when the store does not answer within its deadline; goes to `onError`. */
export class StoreTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`the plant store did not answer within ${timeoutMs} ms`);
    this.name = 'StoreTimeoutError';
  }
}

function withDeadline<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: unknown;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(timeoutMs)), timeoutMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
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
  const plant: Plant = newPlant.tag === undefined ? { name: newPlant.name } : { name: newPlant.name, tag: newPlant.tag };
  let inserted;
  try {
    const insert = store.insertIfAbsent(newPlant.id, plant);
    inserted = options.timeoutMs === undefined ? await insert : await withDeadline(insert, options.timeoutMs);
  } catch (cause) {
    return fail('storage-unavailable', 'the plant store is unavailable; try again later', cause);
  }
  switch (inserted.status) {
    case 'inserted':
      return { ok: true, value: { outcome: 'created', plant } };
    case 'full':
      return fail('storage-full', 'the plant store is full');
    case 'exists': {
      const { existing } = inserted;
      if (existing.name === plant.name && existing.tag === plant.tag) {
        return { ok: true, value: { outcome: 'replayed', plant } };
      }
      return fail('conflict', `id: a plant with id ${newPlant.id} already exists with a different name or tag`);
    }
  }
}
