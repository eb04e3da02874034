import { describeHttpConformance } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { RUNTIMES, runtimeVersion, spawnServer } from './runtimes.ts';

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
