import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plant, PlantStore } from '@plant-store/core';
import { anyString, int64 } from './arbitraries.ts';

/** Options of {@link describeStoreContract}. */
export interface StoreContractOptions {
  /** Makes an empty store; called once per test. */
  readonly create: () => PlantStore | Promise<PlantStore>;
  /** Releases a store made by `create` (close a pool, drop a table). */
  readonly dispose?: (store: PlantStore) => void | Promise<void>;
  /** Runs of each property. Default 100. */
  readonly numRuns?: number;
}

/**
 * The behaviour every {@link PlantStore} must share, as a vitest suite: exact
 * int64 keys, insert-if-absent that never overwrites, reporting the stored
 * plant on a clash, and exactly one winner among concurrent inserts of an id.
 *
 * @example
 * import { describeStoreContract } from '@plant-store/testing';
 * describeStoreContract('my store', { create: () => createMyStore() });
 */
export function describeStoreContract(name: string, options: StoreContractOptions): void {
  const numRuns = options.numRuns ?? 100;
  async function withStore(run: (store: PlantStore) => Promise<void>): Promise<void> {
    const store = await options.create();
    try {
      await run(store);
    } finally {
      await options.dispose?.(store);
    }
  }
  const plant = (): fc.Arbitrary<Plant> =>
    fc.record({ name: anyString(), tag: fc.option(anyString(), { nil: undefined }) }).map(({ name, tag }) => (tag === undefined ? { name } : { name, tag }));

  describe(`store contract: ${name}`, () => {
    it('stores a plant under its exact id and reads it back unchanged', () =>
      withStore(async (store) => {
        await fc.assert(
          fc.asyncProperty(int64(), plant(), async (id, p) => {
            const before = await store.get(id);
            const result = await store.insertIfAbsent(id, p);
            if (before === undefined) {
              expect(result).toEqual({ status: 'inserted' });
              expect(await store.get(id)).toEqual(p);
            } else {
              expect(result).toEqual({ status: 'exists', existing: before });
            }
          }),
          { numRuns },
        );
      }));

    it('answers undefined for an id never stored', () =>
      withStore(async (store) => {
        expect(await store.get(42n)).toBeUndefined();
      }));

    it('never overwrites: a second insert reports the first plant and leaves it', () =>
      withStore(async (store) => {
        await fc.assert(
          fc.asyncProperty(int64(), plant(), plant(), async (id, first, second) => {
            const existing = await store.get(id);
            await store.insertIfAbsent(id, first);
            const kept = existing ?? first;
            expect(await store.insertIfAbsent(id, second)).toEqual({ status: 'exists', existing: kept });
            expect(await store.get(id)).toEqual(kept);
          }),
          { numRuns },
        );
      }));

    it('keeps ids apart that a double would merge (2^60 and 2^60 + 1, the int64 extremes)', () =>
      withStore(async (store) => {
        const ids = [1152921504606846976n, 1152921504606846977n, -(2n ** 63n), 2n ** 63n - 1n, 0n, -1n];
        for (const [i, id] of ids.entries()) {
          expect(await store.insertIfAbsent(id, { name: `plant ${i}` })).toEqual({ status: 'inserted' });
        }
        for (const [i, id] of ids.entries()) expect(await store.get(id)).toEqual({ name: `plant ${i}` });
      }));

    it('stores tag only when given, and empty strings as they are', () =>
      withStore(async (store) => {
        await store.insertIfAbsent(1n, { name: '' });
        await store.insertIfAbsent(2n, { name: 'a', tag: '' });
        expect(await store.get(1n)).toStrictEqual({ name: '' });
        expect(await store.get(2n)).toStrictEqual({ name: 'a', tag: '' });
      }));

    it('is not changed through the objects passed in or handed out', () =>
      withStore(async (store) => {
        const given: { name: string; tag?: string } = { name: 'Fern', tag: 'green' };
        await store.insertIfAbsent(3n, given);
        given.name = 'changed';
        const read = (await store.get(3n)) as { name: string } | undefined;
        try {
          if (read !== undefined) read.name = 'changed too';
        } catch {
          // A frozen plant may refuse the write; either way the store must not change.
        }
        expect(await store.get(3n)).toEqual({ name: 'Fern', tag: 'green' });
      }));

    it('lets exactly one of 32 concurrent inserts of one id win', () =>
      withStore(async (store) => {
        const results = await Promise.all(Array.from({ length: 32 }, (_, i) => store.insertIfAbsent(77n, { name: `racer ${i}` })));
        const winners = results.filter((result) => result.status === 'inserted');
        expect(winners).toHaveLength(1);
        const stored = await store.get(77n);
        for (const result of results) if (result.status === 'exists') expect(result.existing).toEqual(stored);
      }));
  });
}
