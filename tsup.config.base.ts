import type { Options } from 'tsup';

/**
 * The one build every package shares: ESM + CJS + declarations, no minification,
 * so that stack traces and diffs of `dist` stay readable. `tsconfig` names the
 * project that covers every entry (the core's `testing` entry needs Node types).
 */
export function packageBuild(entry: Record<string, string>, tsconfig = 'tsconfig.json'): Options {
  return {
    entry,
    tsconfig,
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'es2022',
    splitting: false,
    treeshake: true,
  };
}
