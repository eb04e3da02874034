import { staticTokens, type Authenticate, type PlantStore } from '@plant-store/core';

/** The one token conformance servers accept. */
export const CONFORMANCE_TOKEN = 'conformance-token_0123456789';

/**
 * The server set-ups the conformance suite needs: a working one, and one per
 * fault that only a failing dependency can produce (500, 503, 507).
 */
export type ConformanceScenario = 'working' | 'store-failing' | 'store-full' | 'authenticate-throwing';

/** The failure a faulty store or verifier throws; it must never reach a client. */
export const INJECTED_FAULT_MESSAGE = 'injected fault: secret detail that must stay on the server';

/**
 * The store and verifier a target should be built with for `scenario`, given
 * the store it uses when working. Shared so that every adapter and runtime
 * fails in exactly the same way.
 */
export function conformanceOptions(scenario: ConformanceScenario, workingStore: PlantStore): { store: PlantStore; authenticate: Authenticate } {
  const accept = staticTokens([CONFORMANCE_TOKEN]);
  switch (scenario) {
    case 'working':
      return { store: workingStore, authenticate: accept };
    case 'store-failing':
      return {
        store: {
          insertIfAbsent: () => Promise.reject(new Error(INJECTED_FAULT_MESSAGE)),
          get: () => Promise.reject(new Error(INJECTED_FAULT_MESSAGE)),
        },
        authenticate: accept,
      };
    case 'store-full':
      return {
        store: { insertIfAbsent: () => Promise.resolve({ status: 'full' }), get: () => Promise.resolve(undefined) },
        authenticate: accept,
      };
    case 'authenticate-throwing':
      return {
        store: workingStore,
        authenticate: () => {
          throw new Error(INJECTED_FAULT_MESSAGE);
        },
      };
  }
}
