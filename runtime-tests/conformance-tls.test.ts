// Runs in vitest on Node 24: the HTTP conformance suite over HTTPS (PLANT_STORE_TLS_CERT and PLANT_STORE_TLS_KEY) on
// every runtime whose standalone server serves it, with a certificate the test makes with openssl. A file of its own
// beside conformance.test.ts (plain HTTP) and conformance-http2.test.ts, so that they run side by side.
import { describeHttpConformance } from '@plant-store/testing';
import { NODE_LINES, runtime, spawnServer, temporaryDirectories } from './runtimes.ts';
import { createTestAuthority } from './support/test-certificates.ts';

// The same suite over HTTPS (PLANT_STORE_TLS_CERT and PLANT_STORE_TLS_KEY), where the standalone server serves it.
const authority = createTestAuthority(temporaryDirectories('plant-store-conformance-tls-')());
const served = authority.leaf('conformance');
for (const name of [...NODE_LINES, 'Bun', 'Deno', 'workerd']) {
  describeHttpConformance({
    name: `${name} standalone over TLS`,
    unmatched: 'not-found',
    ca: authority.ca,
    start: (scenario) => spawnServer(runtime(name), scenario, { PLANT_STORE_TLS_CERT: served.certPath, PLANT_STORE_TLS_KEY: served.keyPath }),
  });
}
