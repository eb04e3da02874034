import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base.ts';
import { stripSourceMapComment } from './src/strip-source-map-comment.ts';

/**
 * Embeds `<file>?raw` imports as strings, as Vite (and so Vitest) reads them:
 * Swagger UI's files travel inside the build, so the page needs no filesystem
 * (Workers have none) and no runtime dependency on swagger-ui-dist. Their source
 * map comments are dropped: the maps are not served, and a comment left inside
 * the build would be taken for the build's own by Node's `--enable-source-maps`.
 */
const rawText: Plugin = {
  name: 'raw-text',
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, async (args) => {
      const found = await build.resolve(args.path.slice(0, -'?raw'.length), { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer });
      // Relative, so that the build names no directory of the machine it ran on; the suffix stays,
      // so that no loader for `.css` or `.js` files claims the path.
      return found.errors.length > 0 ? { errors: found.errors } : { path: `${relative(process.cwd(), found.path)}?raw`, namespace: 'raw-text' };
    });
    build.onLoad({ filter: /\?raw$/, namespace: 'raw-text' }, async (args) => ({
      contents: stripSourceMapComment(await readFile(args.path.slice(0, -'?raw'.length), 'utf8')),
      loader: 'text',
    }));
  },
};

export default defineConfig({
  ...packageBuild({ index: 'src/index.ts' }),
  // Source maps would hold a second copy of every embedded file.
  sourcemap: false,
  // The one type taken from the core is written into the declarations, so they need no core installed.
  dts: { resolve: ['@plant-store/core'] },
  esbuildPlugins: [rawText],
});
