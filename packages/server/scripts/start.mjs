// Starts a standalone server straight from the sources: `pnpm start` (Node),
// `pnpm start:bun`, `start:deno`, `start:workerd`. It first installs what
// serving needs, and only that (not the test tools and runtimes), unless the
// install is already up to date. Each entry is then bundled into one file with
// esbuild (a fraction of a second), and only when a source it was built from
// has changed since, so a second start costs next to nothing.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const server = fileURLToPath(new URL('..', import.meta.url));
const root = join(server, '../..');
const out = join(server, 'dist/start');

/** Whether `pnpm install` has run since the lockfile or a package manifest last changed. */
function installed() {
  const modules = join(root, 'node_modules/.modules.yaml');
  if (!existsSync(modules) || !existsSync(join(server, 'node_modules/esbuild'))) return false;
  const at = statSync(modules).mtimeMs;
  const manifests = [
    'pnpm-lock.yaml',
    'package.json',
    ...['core', 'adapter-node', 'adapter-fetch', 'store-memory', 'store-postgres', 'store-sqlite', 'store-d1', 'docs-page', 'server'].map(
      (name) => `packages/${name}/package.json`,
    ),
  ];
  return manifests.every((file) => statSync(join(root, file)).mtimeMs <= at);
}

function installServing() {
  // Under `pnpm start`, pnpm names itself; run directly, the pinned pnpm through npx.
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  const [command, ...pnpm] = process.env.npm_execpath?.includes('pnpm') ? [process.execPath, process.env.npm_execpath] : ['npx', '--yes', pinned];
  execFileSync(command, [...pnpm, 'install', '--frozen-lockfile', '--filter', '@plant-store/server...'], { cwd: root, stdio: 'inherit' });
}

// Every workspace package from its sources, so nothing has to be built first.
const alias = Object.fromEntries(
  ['core', 'adapter-node', 'adapter-fetch', 'store-memory', 'store-postgres', 'store-sqlite', 'store-d1', 'docs-page'].map((name) => [
    `@plant-store/${name}`,
    join(root, 'packages', name, 'src/index.ts'),
  ]),
);

/**
 * `<file>?raw` imports (the docs page's Swagger UI files) as the file's text,
 * as the docs page's own build embeds them: without a trailing source map
 * comment, which a browser would follow to a map that is not served, and
 * which Node would take for the bundle's own.
 * @type {import('esbuild').Plugin}
 */
const rawText = {
  name: 'raw-text',
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, async (args) => {
      const found = await build.resolve(args.path.slice(0, -'?raw'.length), { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer });
      return found.errors.length > 0 ? { errors: found.errors } : { path: found.path, namespace: 'raw-text', watchFiles: [found.path] };
    });
    build.onLoad({ filter: /.*/, namespace: 'raw-text' }, (args) => {
      const text = readFileSync(args.path, 'utf8').trimEnd();
      const lineStart = text.lastIndexOf('\n') + 1;
      const comment = /^(?:\/\/[#@] sourceMappingURL=\S*|\/\*[#@] sourceMappingURL=\S*?\s*\*\/)$/.test(text.slice(lineStart));
      return { contents: comment ? `${text.slice(0, lineStart).trimEnd()}\n` : `${text}\n`, loader: 'text' };
    });
  },
};

/** @typedef {[name: string, entry: string, platform: 'node' | 'neutral']} Bundle */
/** Loaded only when a bundle is stale. @type {typeof import('esbuild') | undefined} */
let esbuild;
/** What each runtime runs. @type {Record<string, Bundle[]>} */
const RUNTIMES = {
  node: [['node', 'src/bin/node.ts', 'node']],
  // Bun and Deno take Node's built-ins (the database drivers use them).
  bun: [['bun', 'src/bin/bun.ts', 'node']],
  deno: [['deno', 'src/bin/deno.ts', 'node']],
  // The launcher runs on Node and serves the Worker, built beside it.
  workerd: [
    ['workerd', 'src/bin/workerd.ts', 'node'],
    ['worker', 'src/bin/worker.ts', 'neutral'],
  ],
};

/**
 * Bundles `entry` to `dist/start/<name>.js` unless that file is newer than every input it came from.
 * @param {Bundle} bundle
 */
async function bundle([name, entry, platform]) {
  const outfile = join(out, `${name}.js`);
  const inputsFile = join(out, `${name}.inputs.json`);
  if (existsSync(outfile) && existsSync(inputsFile)) {
    const built = statSync(outfile).mtimeMs;
    /** @type {string[]} */
    const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
    if (inputs.every((input) => existsSync(input) && statSync(input).mtimeMs <= built)) return outfile;
  }
  esbuild ??= await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(server, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform,
    target: platform === 'node' ? 'node20' : 'es2022',
    // Only workerd itself stays outside: the launcher starts it from its package.
    external: name === 'workerd' ? ['miniflare'] : [],
    ...(platform === 'neutral'
      ? { mainFields: ['module', 'main'] }
      : // A bundled CommonJS dependency may still call require() for Node built-ins.
        { banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" } }),
    alias,
    plugins: [rawText],
    metafile: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  // This script too: a change in how bundles are built makes them stale.
  // Inputs are relative to the working directory, raw files absolute after their namespace.
  const inputs = [
    fileURLToPath(import.meta.url),
    ...Object.keys(result.metafile?.inputs ?? {}).map((input) => resolve(process.cwd(), input.replace(/^raw-text:/, ''))),
  ];
  writeFileSync(inputsFile, JSON.stringify(inputs));
  return outfile;
}

const runtime = process.argv[2] ?? 'node';
// What follows the runtime is the server's own (`pnpm start --help`).
const serverArgs = process.argv.slice(3);
const chosen = RUNTIMES[runtime];
if (chosen === undefined) {
  console.error(`plant-store: unknown runtime ${runtime}; expected one of ${Object.keys(RUNTIMES).join(', ')}`);
  process.exit(1);
}
if (!installed()) installServing();
const files = [];
for (const entry of chosen) files.push(await bundle(entry));
// esbuild's service process would outlive the server and hold its output open.
if (esbuild !== undefined) esbuild.stop();

if (runtime === 'node' || runtime === 'workerd') {
  // In this process: one start of Node is enough. The launcher comes first,
  // and reads its arguments from process.argv as if it had been run itself.
  process.argv.splice(2, 1);
  await import(pathToFileURL(/** @type {string} */ (files[0])).href);
} else {
  // Bun and Deno come from the registry packages the test install brings.
  const require = createRequire(join(root, 'runtime-tests/package.json'));
  const binary =
    runtime === 'bun' ? join(dirname(require.resolve('bun/package.json')), 'bin/bun.exe') : join(dirname(require.resolve('deno/package.json')), 'deno');
  const file = /** @type {string} */ (files[0]);
  // Deno: the variables the server reads (postgres.js reads PG… ones), and the default store's directory;
  // with PLANT_STORE_WORKERS asking for several processes, its own binary too, to start the others.
  const deno = [
    '--allow-net',
    '--allow-env=HOST,PORT,PLANT_STORE_TOKENS,PLANT_STORE_ACCESS_LOG,PLANT_STORE_DATABASE_URL,PLANT_STORE_LOG_FORMAT,PLANT_STORE_CORS_ORIGINS,PLANT_STORE_DOCS,PLANT_STORE_WORKERS,PG*',
    '--allow-read=.plant-store',
    '--allow-write=.plant-store',
    ...(Number(process.env.PLANT_STORE_WORKERS?.trim() || '1') > 1 ? [`--allow-run=${binary}`] : []),
  ];
  const args = runtime === 'bun' ? [file, ...serverArgs] : ['run', ...deno, file, ...serverArgs];
  const child = spawn(binary, args, { stdio: 'inherit', env: { DO_NOT_TRACK: '1', DENO_NO_UPDATE_CHECK: '1', ...process.env } });
  // The signal reaches the whole foreground group; wait for the server's own graceful stop.
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
  child.once('exit', (code) => process.exit(code ?? 1));
}
