import { describe, it } from 'vitest';
import { runStoreContractCheck, STORE_CONTRACT, type StoreContractOptions } from './store-contract.ts';

export type { StoreContractOptions } from './store-contract.ts';

/**
 * The behaviour every `PlantStore` must share, as a vitest suite: exact
 * int64 keys, insert-if-absent that never overwrites, reporting the stored
 * plant on a clash, exactly one winner among concurrent inserts of an id, and
 * a `ready()`, where the store has one, that answers.
 * One test per check of {@link STORE_CONTRACT}, each on a fresh store; outside
 * vitest, `runStoreContract` runs the same checks.
 *
 * @example
 * import { describeStoreContract } from '@plant-store/testing';
 * describeStoreContract('my store', { create: () => createMyStore() });
 */
export function describeStoreContract(name: string, options: StoreContractOptions): void {
  describe(`store contract: ${name}`, () => {
    for (const check of STORE_CONTRACT) it(check.name, () => runStoreContractCheck(check, options));
  });
}
