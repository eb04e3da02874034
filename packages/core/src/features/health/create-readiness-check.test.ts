import { describe, expect, it } from 'vitest';
import { createReadinessCheck } from './create-readiness-check.ts';
import type { PlantStore } from '../../domain/plant-store.ts';
import { StoreTimeoutError } from '../../domain/with-timeout.ts';

const base: PlantStore = { insertIfAbsent: () => ({ status: 'inserted' }), get: async () => undefined };

describe('createReadinessCheck', () => {
  it('counts a store without ready() as ready', async () => {
    expect(await createReadinessCheck(base, 100)()).toBeUndefined();
  });

  it('is ready when ready() returns or resolves', async () => {
    expect(await createReadinessCheck({ ...base, ready() {} }, 100)()).toBeUndefined();
    expect(await createReadinessCheck({ ...base, ready: async () => {} }, 100)()).toBeUndefined();
  });

  it('is not ready, with the error as cause, when ready() throws or rejects', async () => {
    const error = new Error('db down');
    for (const ready of [
      () => {
        throw error;
      },
      () => Promise.reject(error),
    ]) {
      expect(await createReadinessCheck({ ...base, ready }, 100)()).toEqual({
        kind: 'storage-unavailable',
        message: 'the plant store is not available',
        cause: error,
      });
    }
  });

  it('is not ready when ready() takes longer than the timeout', async () => {
    const failure = await createReadinessCheck({ ...base, ready: () => new Promise(() => {}) }, 20)();
    expect(failure?.message).toBe('the plant store did not answer in time');
    expect(failure?.cause).toBeInstanceOf(StoreTimeoutError);
  });

  it('lets probes that arrive together share one call, and asks again afterwards', async () => {
    let calls = 0;
    const check = createReadinessCheck({ ...base, ready: () => new Promise<void>((resolve) => setTimeout(() => resolve(void calls++), 5)) }, 1_000);
    await Promise.all([check(), check(), check()]);
    expect(calls).toBe(1);
    await check();
    expect(calls).toBe(2);
  });
});
