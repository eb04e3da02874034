// Starts a standalone server straight from the sources: `pnpm start` (Node),
// `pnpm start:bun`, `start:deno`, `start:workerd`. Each entry is bundled into
// one file with esbuild (a fraction of a second), and only when a source it
// was built from has changed since, so a second start costs nothing.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const server = fileURLToPath(new URL('..', import.meta.url));
const root = join(server, '../..');
const out = join(server, 'dist/start');

// Every workspace package from its sources, so nothing has to be built first.
const alias = Object.fromEntries(
  ['core', 'adapter-node', 'adapter-fetch', 'store-memory', 'store-postgres'].map((name) => [`@plant-store/${name}`, join(root, 'packages', name, 'src/index.ts')]),
);

// What each runtime runs: [bundle name, entry, esbuild platform].
const RUNTIMES = {
  node: [['node', 'src/bin/node.ts', 'node']],
  bun: [['bun', 'src/bin/bun.ts', 'neutral']],
  deno: [['deno', 'src/bin/deno.ts', 'neutral']],
  // The launcher runs on Node and serves the Worker, built beside it.
  workerd: [
    ['workerd', 'src/bin/workerd.ts', 'node'],
    ['worker', 'src/bin/worker.ts', 'neutral'],
  ],
};

/** Bundles `entry` to `dist/start/<name>.js` unless that file is newer than every input it came from. */
async function bundle(name, entry, platform) {
  const outfile = join(out, `${name}.js`);
  const inputsFile = join(out, `${name}.inputs.json`);
  if (existsSync(outfile) && existsSync(inputsFile)) {
    const built = statSync(outfile).mtimeMs;
    const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
    if (inputs.every((input) => existsSync(input) && statSync(input).mtimeMs <= built)) return outfile;
  }
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(server, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform,
    target: platform === 'node' ? 'node20' : 'es2022',
    // Only workerd itself stays outside: the launcher starts it from its package.
    external: name === 'workerd' ? ['miniflare'] : [],
    mainFields: platform === 'neutral' ? ['module', 'main'] : undefined,
    // A bundled CommonJS dependency may still call require() for Node built-ins.
    banner: platform === 'node' ? { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" } : undefined,
    alias,
    metafile: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  // This script too: a change in how bundles are built makes them stale.
  const inputs = [fileURLToPath(import.meta.url), ...Object.keys(result.metafile.inputs).map((input) => join(process.cwd(), input))];
  writeFileSync(inputsFile, JSON.stringify(inputs));
  return outfile;
}

const runtime = process.argv[2] ?? 'node';
const chosen = RUNTIMES[runtime];
if (chosen === undefined) {
  console.error(`plant-store: unknown runtime ${runtime}; expected one of ${Object.keys(RUNTIMES).join(', ')}`);
  process.exit(1);
}
const files = {};
for (const [name, entry, platform] of chosen) files[name] = await bundle(name, entry, platform);

if (runtime === 'node' || runtime === 'workerd') {
  // In this process: one start of Node is enough.
  await import(pathToFileURL(files[runtime]).href);
} else {
  // Bun and Deno come from the registry packages the test install brings.
  const require = createRequire(join(root, 'runtime-tests/package.json'));
  const binary = runtime === 'bun' ? join(dirname(require.resolve('bun/package.json')), 'bin/bun.exe') : join(dirname(require.resolve('deno/package.json')), 'deno');
  const args =
    runtime === 'bun'
      ? [files.bun]
      : ['run', '--allow-net', '--allow-env=HOST,PORT,PLANT_STORE_TOKENS,PLANT_STORE_ACCESS_LOG', files.deno];
  const child = spawn(binary, args, { stdio: 'inherit', env: { DO_NOT_TRACK: '1', DENO_NO_UPDATE_CHECK: '1', ...process.env } });
  // The signal reaches the whole foreground group; wait for the server's own graceful stop.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.once('exit', (code) => process.exit(code ?? 1));
}
