import { staticTokens, type DocsPage, type PlantHandlerOptions, type PlantStore } from '@plant-store/core';

/** The one token conformance servers accept. */
export const CONFORMANCE_TOKEN = 'conformance-token_0123456789';

/**
 * The server set-ups the conformance suite needs: a working one, one per
 * fault that only a failing dependency can produce (500, 503, 507), and
 * `features`, working with every opt-in feature on (CORS for
 * {@link CONFORMANCE_ORIGIN}, request ids, health, the docs page
 * {@link CONFORMANCE_DOCS_PAGE}). `store-failing` serves health too, so that
 * `/readyz` meets a store that is not ready.
 */
export type ConformanceScenario = 'working' | 'store-failing' | 'store-full' | 'authenticate-throwing' | 'features';

/** The one origin the `features` scenario allows, with credentials. */
export const CONFORMANCE_ORIGIN = 'https://app.example';

/** The docs page of the `features` scenario: a page and one script, in the shape `@plant-store/docs-page` has. */
export const CONFORMANCE_DOCS_PAGE: DocsPage = {
  html: '<!doctype html><html><head><title>Plant Store</title><script src="docs/page.js"></script></head><body></body></html>',
  files: { 'page.js': { contentType: 'text/javascript; charset=utf-8', body: 'fetch("openapi.json");\n' } },
};

/** What {@link conformanceOptions} gives a target to build its handler with. */
export type ConformanceOptions = Pick<PlantHandlerOptions, 'store' | 'authenticate' | 'cors' | 'requestId' | 'health' | 'docs'>;

/** The failure a faulty store or verifier throws; it must never reach a client. */
export const INJECTED_FAULT_MESSAGE = 'injected fault: secret detail that must stay on the server';

/**
 * The store, verifier and features a target should be built with for
 * `scenario`, given the store it uses when working. Shared so that every
 * adapter and runtime fails, and serves the features, in exactly the same way.
 */
export function conformanceOptions(scenario: ConformanceScenario, workingStore: PlantStore): ConformanceOptions {
  const accept = staticTokens([CONFORMANCE_TOKEN]);
  switch (scenario) {
    case 'working':
      return { store: workingStore, authenticate: accept };
    case 'features':
      return {
        store: workingStore,
        authenticate: accept,
        cors: { origins: [CONFORMANCE_ORIGIN], credentials: true, maxAgeSeconds: 600 },
        requestId: true,
        health: true,
        docs: CONFORMANCE_DOCS_PAGE,
      };
    case 'store-failing':
      return {
        store: {
          insertIfAbsent: () => Promise.reject(new Error(INJECTED_FAULT_MESSAGE)),
          get: () => Promise.reject(new Error(INJECTED_FAULT_MESSAGE)),
          ready: () => Promise.reject(new Error(INJECTED_FAULT_MESSAGE)),
        },
        authenticate: accept,
        health: true,
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
