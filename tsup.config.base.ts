import type { Options } from 'tsup';

/**
 * The one build every package shares: ESM + CJS + declarations, no minification,
 * so that stack traces and diffs of `dist` stay readable.
 */
export function packageBuild(entry: Record<string, string>): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'es2022',
    splitting: false,
    treeshake: true,
  };
}
