import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Servers bind to port 0 and stores are per file, so files can run side by side.
    fileParallelism: true,
    projects: [
      // Fast: the packages' own tests and the documentation's snippets, in this process or
      // against servers on port 0 (`vitest run --project packages`).
      { extends: true, test: { name: 'packages', include: ['packages/*/src/**/*.test.ts', 'docs/**/*.test.ts'] } },
      // Slow: every runtime's standalone process, PostgreSQL, the examples, the OpenAPI tools.
      { extends: true, test: { name: 'runtimes', include: ['runtime-tests/*.test.ts'] } },
    ],
  },
});
