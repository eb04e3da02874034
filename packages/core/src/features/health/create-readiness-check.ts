// Runs anywhere: the store's readiness, asked once at a time, within the store timeout (setTimeout, which every runtime has).
import type { Failure } from '../../domain/failure.ts';
import type { PlantStore } from '../../domain/plant-store.ts';
import { StoreTimeoutError, withTimeout } from '../../domain/with-timeout.ts';

/** Asks whether the store is ready: nothing when it is, else the failure to answer with. */
export type ReadinessCheck = () => Promise<Failure | undefined>;

const NOT_READY = 'the plant store is not available';
const NOT_READY_IN_TIME = 'the plant store did not answer in time';

/**
 * Builds the check behind `GET {base}/readyz`: the store's optional `ready()`,
 * within `timeoutMs`. Probes that arrive while one check is running share it,
 * so a crowd of load balancers costs the database one round trip. A store
 * without `ready()` is always ready. Never rejects: a throw, a rejection or a
 * late answer is a `storage-unavailable` failure carrying the error as `cause`.
 *
 * @example
 * const check = createReadinessCheck(store, 5_000);
 * const failure = await check(); // undefined when ready
 */
export function createReadinessCheck(store: PlantStore, timeoutMs: number): ReadinessCheck {
  if (typeof store.ready !== 'function') return () => Promise.resolve(undefined);
  let running: Promise<Failure | undefined> | undefined;
  const check = async (): Promise<Failure | undefined> => {
    try {
      await withTimeout(Promise.resolve(store.ready!()), timeoutMs);
      return undefined;
    } catch (cause) {
      return { kind: 'storage-unavailable', message: cause instanceof StoreTimeoutError ? NOT_READY_IN_TIME : NOT_READY, cause };
    }
  };
  return () => {
    running ??= check().finally(() => {
      running = undefined;
    });
    return running;
  };
}
