import { describeHttpConformance } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { NODE_LINES, runtime, RUNTIMES, runtimeVersion, spawnServer, temporaryDirectories } from './runtimes.ts';
import { createTestAuthority } from './support/test-certificates.ts';

describe('runtime versions under test', () => {
  it.each(RUNTIMES.map((runtime) => [runtime.name, runtime] as const))('%s reports its version', (_name, runtime) => {
    const version = runtimeVersion(runtime);
    console.log(`${runtime.name}: ${version}`);
    expect(version).toMatch(/\d/);
  });
});

for (const runtime of RUNTIMES) {
  describeHttpConformance({
    name: `${runtime.name} standalone`,
    unmatched: 'not-found',
    start: (scenario) => spawnServer(runtime, scenario),
  });
}

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

// And over HTTP/2, which the standalone Node server offers beside HTTP/1.1 over TLS: the same answers, the suite's
// HTTP/1.1 framing cases on HTTP/1.1.
for (const name of NODE_LINES) {
  describeHttpConformance({
    name: `${name} standalone over HTTP/2`,
    unmatched: 'not-found',
    ca: authority.ca,
    http2: true,
    start: (scenario) => spawnServer(runtime(name), scenario, { PLANT_STORE_TLS_CERT: served.certPath, PLANT_STORE_TLS_KEY: served.keyPath }),
  });
}
