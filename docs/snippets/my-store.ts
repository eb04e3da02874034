import type { InsertResult, Plant, PlantStore } from '@plant-store/core';

/** Plants in a Map, as an example of the PlantStore interface. */
export function createMyStore(): PlantStore {
  const plants = new Map<bigint, Plant>();
  // Callers get copies, so nothing they do to a plant changes the store.
  const copy = (plant: Plant): Plant => (plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag });
  return {
    // The check and the write happen in one synchronous step, so of concurrent
    // calls for one id exactly one inserts. A store doing I/O needs the same
    // guarantee from its backend (a unique key, a conditional write).
    async insertIfAbsent(id: bigint, plant: Plant): Promise<InsertResult> {
      const existing = plants.get(id);
      if (existing !== undefined) return { status: 'exists', existing: copy(existing) };
      plants.set(id, copy(plant));
      return { status: 'inserted' };
    },
    async get(id: bigint): Promise<Plant | undefined> {
      const plant = plants.get(id);
      return plant === undefined ? undefined : copy(plant);
    },
  };
}
