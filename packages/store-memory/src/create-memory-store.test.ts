import { describeStoreContract } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, DEFAULT_MAX_BYTES, DEFAULT_MAX_PLANTS, ENTRY_OVERHEAD_BYTES } from './create-memory-store.ts';

describeStoreContract('store-memory', { create: () => createMemoryStore(), numRuns: 300 });

describe('createMemoryStore bounds', () => {
  it('has documented defaults', () => {
    expect(DEFAULT_MAX_PLANTS).toBe(1_000_000);
    expect(DEFAULT_MAX_BYTES).toBe(256 * 1024 * 1024);
  });

  it('answers full past maxPlants and stores nothing more', async () => {
    const store = createMemoryStore({ maxPlants: 3 });
    for (const id of [1n, 2n, 3n]) expect(await store.insertIfAbsent(id, { name: 'p' })).toEqual({ status: 'inserted' });
    expect(await store.insertIfAbsent(4n, { name: 'p' })).toEqual({ status: 'full' });
    expect(await store.get(4n)).toBeUndefined();
    // A replay of a stored id still finds it: being full does not hide what is there.
    expect(await store.insertIfAbsent(1n, { name: 'p' })).toEqual({ status: 'exists', existing: { name: 'p' } });
    expect(store.size).toBe(3);
  });

  it('answers full past maxBytes, counting 2 bytes per code unit plus the entry overhead', async () => {
    const store = createMemoryStore({ maxBytes: 2 * (ENTRY_OVERHEAD_BYTES + 40) });
    expect(await store.insertIfAbsent(1n, { name: 'x'.repeat(10), tag: 'y'.repeat(10) })).toEqual({ status: 'inserted' });
    expect(store.bytes).toBe(ENTRY_OVERHEAD_BYTES + 40);
    expect(await store.insertIfAbsent(2n, { name: 'x'.repeat(21) })).toEqual({ status: 'full' });
    expect(await store.insertIfAbsent(3n, { name: 'x'.repeat(10), tag: 'y'.repeat(10) })).toEqual({ status: 'inserted' });
    expect(store.bytes).toBe(2 * ENTRY_OVERHEAD_BYTES + 80);
  });

  it('refuses bounds that are not non-negative integers', () => {
    expect(() => createMemoryStore({ maxPlants: -1 })).toThrow(TypeError);
    expect(() => createMemoryStore({ maxBytes: 1.5 })).toThrow(TypeError);
  });
});
