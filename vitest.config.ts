// Runs on Node, where vitest loads it: the test command's projects, how many files run at once and in what order.
import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run longest in a fresh clone's run (each from about 40 s to 90 s there). On a fresh clone vitest has
 * no timings and queues files by size, so a short file that runs long (80,000 creates) would start last and end the
 * run with the other worker idle.
 */
const LONGEST = [
  'runtime-tests/hardening.test.ts',
  'runtime-tests/workerd-d1-memory.test.ts',
  'runtime-tests/sqlite-faults.test.ts',
  'runtime-tests/quirks.test.ts',
  'runtime-tests/conformance-http2.test.ts',
  'runtime-tests/consumer-types.test.ts',
  'runtime-tests/durability.test.ts',
];
// A renamed or removed file would silently drop out of the list: checked where the config loads.
for (const path of LONGEST) if (!existsSync(new URL(path, import.meta.url))) throw new Error(`vitest.config.ts: LONGEST names ${path}, which is not there`);

/**
 * vitest's own order (by group, then by the timings of the last run, or by size where it has none), except that
 * when it has no timings for a {@link LONGEST} file, that file goes first in its group, ahead of other projects' files.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const keyed = (await super.sort(files)).map((spec, index) => {
      const at = this.ctx.cache.getTestSpecificationResult(spec) === undefined ? LONGEST.findIndex((path) => spec.moduleId.endsWith(`/${path}`)) : -1;
      return { spec, index, group: spec.project.config.sequence.groupOrder, rank: at < 0 ? LONGEST.length : at };
    });
    return keyed.sort((a, b) => a.group - b.group || a.rank - b.rank || a.index - b.index).map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Servers bind to port 0 and stores are per file, so files can run side by side.
    fileParallelism: true,
    // Most files wait on real timers, sockets and child processes rather than compute:
    // two at a time on the 2-core machine (vitest's default there is one), so the whole run
    // fits its time budget; every timing bound in the tests allows for a loaded machine.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      // Fast: the packages' own tests (src/ and test/) and the documentation's snippets, in this process or
      // against servers on port 0 (`vitest run --project packages`).
      { extends: true, test: { name: 'packages', include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'docs/**/*.test.ts'] } },
      // Slow: every runtime's standalone process, PostgreSQL, the examples, the OpenAPI tools.
      { extends: true, test: { name: 'runtimes', include: ['runtime-tests/*.test.ts'] } },
      // Slow: clusters that elect their own leader (rqlite, PostgreSQL under Patroni), each test
      // killing or stopping nodes under load (`vitest run --project clusters`).
      { extends: true, test: { name: 'clusters', include: ['runtime-tests/clusters/*.test.ts'] } },
      // Latency under load: the files that assert how fast a loaded server answers run after every
      // other file has ended, one at a time, so that no other test's processes share the cores.
      { extends: true, test: { name: 'latency', include: ['runtime-tests/latency/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
