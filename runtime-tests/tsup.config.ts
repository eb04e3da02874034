import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

// Fixture servers for the fault scenarios: production launchers with a failing
// store or verifier, one self-contained file per runtime. And the store contract
// runner (fixtures/store-contract.ts), one file for Node and one for Bun and Deno.
const common = { outDir: 'dist', format: ['esm'], target: 'es2022', splitting: false, clean: false, noExternal: [/^(?!miniflare$)/] } satisfies Options;

/**
 * For the platform-neutral bundles (Bun, Deno, workerd): Node built-ins stay
 * imports, and bare ones (`os`, `net`… as postgres.js and tsup's own output
 * write them) become `node:os`, `node:net`…, which Deno and workerd require and
 * Bun accepts. `bun:` modules stay imports too.
 */
const runtimeBuiltins: Plugin = {
  name: 'runtime-builtins',
  setup(build) {
    const bare = new Set(builtinModules.filter((name) => !name.startsWith('_')));
    build.onResolve({ filter: /^(node|bun):/ }, (args) => ({ path: args.path, external: true }));
    build.onResolve({ filter: /^[a-z_][a-z0-9_]*(\/[a-z0-9_]+)?$/ }, (args) =>
      bare.has(args.path) ? { path: `node:${args.path}`, external: true } : undefined,
    );
  },
};

export default defineConfig([
  {
    ...common,
    entry: { bun: 'fixtures/bun.ts', deno: 'fixtures/deno.ts', worker: 'fixtures/worker.ts', 'store-contract-neutral': 'fixtures/store-contract.ts' },
    platform: 'neutral',
    removeNodeProtocol: false,
    esbuildPlugins: [runtimeBuiltins],
  },
  {
    ...common,
    entry: { node: 'fixtures/node.ts', workerd: 'fixtures/workerd.ts', 'store-contract-node': 'fixtures/store-contract.ts' },
    platform: 'node',
    external: ['miniflare'],
  },
]);
