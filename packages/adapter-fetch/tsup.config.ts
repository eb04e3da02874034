import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base.ts';

export default defineConfig([
  packageBuild({ index: 'src/index.ts', node: 'src/node.ts' }, 'tsconfig.node.json'),
  // The standalone entries of `start:bun`, `start:deno` and the Worker: one file
  // each with every dependency inside, so no runtime has to resolve packages.
  {
    entry: { bun: 'src/standalone/bun.ts', deno: 'src/standalone/deno.ts', worker: 'src/standalone/worker.ts' },
    outDir: 'dist/standalone',
    format: ['esm'],
    platform: 'neutral',
    target: 'es2022',
    noExternal: [/.*/],
    splitting: false,
    sourcemap: true,
  },
  // The miniflare launcher of `start:workerd` runs on Node.
  {
    entry: { workerd: 'src/standalone/workerd.ts' },
    outDir: 'dist/standalone',
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [/^@plant-store\//, 'valibot'],
    external: ['miniflare'],
    splitting: false,
    sourcemap: true,
  },
]);
