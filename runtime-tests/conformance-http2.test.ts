// Runs in vitest on Node 24: the HTTP conformance suite over HTTP/2, which the standalone Node server offers beside
// HTTP/1.1 over TLS, on every Node line, and workerd's front (Node's server, the Worker behind it reached over
// HTTP/1.1), with a certificate the test makes with openssl; the suite's HTTP/1.1 framing cases stay on HTTP/1.1,
// which the same port serves.
import { describeHttpConformance } from '@plant-store/testing';
import { NODE_LINES, runtime, spawnServer, temporaryDirectories } from './runtimes.ts';
import { createTestAuthority } from './support/test-certificates.ts';

const authority = createTestAuthority(temporaryDirectories('plant-store-conformance-http2-')());
const served = authority.leaf('conformance');

for (const name of [...NODE_LINES, 'workerd']) {
  describeHttpConformance({
    name: `${name} standalone over HTTP/2`,
    unmatched: 'not-found',
    ca: authority.ca,
    http2: true,
    start: (scenario) => spawnServer(runtime(name), scenario, { PLANT_STORE_TLS_CERT: served.certPath, PLANT_STORE_TLS_KEY: served.keyPath }),
  });
}
