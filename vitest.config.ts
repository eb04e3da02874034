import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'runtime-tests/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Servers bind to port 0 and stores are per file, so files can run side by side.
    fileParallelism: true,
  },
});
