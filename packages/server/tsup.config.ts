import { defineConfig, type Options } from 'tsup';
import { packageBuild } from '../../tsup.config.base.ts';

const standalone = { outDir: 'dist/standalone', format: ['esm'], target: 'es2022', splitting: false, sourcemap: true } satisfies Options;

export default defineConfig([
  // The Worker sees no Node types; everything else (Bun and Deno through their
  // Node compatibility) is Node code. `bin/node` is the `plant-store` command.
  packageBuild({ worker: 'src/worker.ts' }),
  {
    ...packageBuild(
      { index: 'src/index.ts', bun: 'src/bun.ts', deno: 'src/deno.ts', workerd: 'src/workerd.ts', 'bin/node': 'src/bin/node.ts' },
      'tsconfig.node.json',
    ),
    clean: false,
    // `import.meta.url` in the CommonJS build too (workerd/_workerd-dying-with-front.ts resolves miniflare's workerd).
    shims: true,
  },
  // The standalone entries: one file each with every dependency inside, so no
  // runtime has to resolve packages. Bun and Deno take Node's built-ins.
  // @opentelemetry/api is the one left out: imported at run time when it is
  // installed, so that the tracer provider a user registers is the one used.
  {
    ...standalone,
    entry: { bun: 'src/bin/bun.ts', deno: 'src/bin/deno.ts' },
    platform: 'node',
    noExternal: [/^(?!@opentelemetry\/api$)/],
    external: ['@opentelemetry/api'],
  },
  { ...standalone, entry: { worker: 'src/bin/worker.ts' }, platform: 'neutral', noExternal: [/.*/] },
  // The miniflare launcher of `start:workerd` runs on Node, beside the Worker it serves.
  { ...standalone, entry: { workerd: 'src/bin/workerd.ts' }, platform: 'node', target: 'node20', noExternal: [/^(?!miniflare$)/], external: ['miniflare'] },
]);
