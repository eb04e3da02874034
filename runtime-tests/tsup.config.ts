import { defineConfig, type Options } from 'tsup';

// Fixture servers for the fault scenarios: production launchers with a failing
// store or verifier, one self-contained file per runtime.
const common = { outDir: 'dist', format: ['esm'], target: 'es2022', splitting: false, clean: false, noExternal: [/^(?!miniflare$)/] } satisfies Options;

export default defineConfig([
  { ...common, entry: { bun: 'fixtures/bun.ts', deno: 'fixtures/deno.ts', worker: 'fixtures/worker.ts' }, platform: 'neutral' },
  { ...common, entry: { node: 'fixtures/node.ts', workerd: 'fixtures/workerd.ts' }, platform: 'node', external: ['miniflare'] },
]);
