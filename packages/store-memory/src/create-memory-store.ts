import type { InsertResult, Plant, PlantStore } from '@plant-store/core';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Most plants held; past it, creates answer 507 (code 1502). Default 1,000,000. */
  readonly maxPlants?: number;
  /**
   * Most bytes held, counted as 2 bytes per UTF-16 code unit of name and tag
   * (V8's worst case) plus {@link ENTRY_OVERHEAD_BYTES} per plant. Default 256 MiB.
   */
  readonly maxBytes?: number;
}

/** A {@link PlantStore} held in this process, with its current fill. */
export interface MemoryStore extends PlantStore {
  /** Answers at once; see {@link PlantStore.insertIfAbsent}. */
  insertIfAbsent(id: bigint, plant: Plant): InsertResult;
  /** Always ready: the plants are in this process. */
  ready(): void;
  /** Plants held. */
  readonly size: number;
  /** Bytes held, as counted against `maxBytes`. */
  readonly bytes: number;
}

/** Default {@link MemoryStoreOptions.maxPlants}. */
export const DEFAULT_MAX_PLANTS = 1_000_000;
/** Default {@link MemoryStoreOptions.maxBytes}: 256 MiB. */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** What one plant costs beyond its strings: map entry, bigint key, plant object. */
export const ENTRY_OVERHEAD_BYTES = 128;

const INSERTED: InsertResult = { status: 'inserted' };
const FULL: InsertResult = { status: 'full' };

/**
 * The map key of an id: a number when it is a safe integer (the common case,
 * and a faster key than a bigint), else the bigint. Each id has exactly one
 * key, so 5 and 5n can never be two entries.
 */
function keyOf(id: bigint): number | bigint {
  // Number() rounds an id past 2^53 - 1 to a double at least 2^53 in size,
  // which is never a safe integer: only the ids it keeps exactly become numbers.
  const number = Number(id);
  return Number.isSafeInteger(number) ? number : id;
}

/** A frozen copy of a stored plant, for a reader: no reader may change what is stored. */
function frozenCopy(plant: Plant): Plant {
  return Object.freeze(plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag });
}

/**
 * The embedded default store: a `Map` keyed by the exact id, bounded
 * by a plant count and a byte budget so that a flood of creates ends in 507
 * answers rather than an out-of-memory crash. Everything is lost on restart.
 *
 * Insert-if-absent is atomic because the check and the write happen in one
 * synchronous step, and it answers synchronously: a create costs no extra
 * turn of the event loop and needs no store timeout.
 *
 * @example
 * const store = createMemoryStore({ maxPlants: 10_000 });
 * createNodeHandler({ store, authenticate: staticTokens(['s3cret-token']) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxPlants = options.maxPlants ?? DEFAULT_MAX_PLANTS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  for (const [name, value] of [
    ['maxPlants', maxPlants],
    ['maxBytes', maxBytes],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new TypeError(`createMemoryStore: \`${name}\` must be a non-negative integer`);
    }
  }
  const plants = new Map<number | bigint, Plant>();
  let bytes = 0;

  return {
    get size() {
      return plants.size;
    },
    get bytes() {
      return bytes;
    },
    insertIfAbsent(id, plant) {
      const key = keyOf(id);
      const existing = plants.get(key);
      if (existing !== undefined) return { status: 'exists', existing: frozenCopy(existing) };
      const cost = ENTRY_OVERHEAD_BYTES + 2 * (plant.name.length + (plant.tag?.length ?? 0));
      if (plants.size >= maxPlants || bytes + cost > maxBytes) return FULL;
      // A copy of the caller's object, which the caller may go on changing. It is never handed
      // out: readers get frozen copies, so freezing is paid on the rare read (a replay, a
      // conflict, a get) rather than on every create (about 30 ns on Node 24 and Bun 1.4).
      plants.set(key, plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag });
      bytes += cost;
      return INSERTED;
    },
    get(id) {
      const plant = plants.get(keyOf(id));
      return Promise.resolve(plant === undefined ? undefined : frozenCopy(plant));
    },
    ready() {},
  };
}
