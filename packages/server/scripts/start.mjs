// Runs on Node 20+ (22, 24 and 26 supported; 20 past its end of life), from the repository root: `npm start` (Node), and
// `npm run start:bun`, `start:deno`, `start:workerd`. It starts a standalone
// server straight from the sources. On a checkout with nothing installed, or
// whose lockfile or manifests changed since the last install, it first
// installs what serving needs and only that (the `dependencies` of the
// server's workspace packages and of the root: esbuild and Swagger UI's
// files), never the test toolchain; a checkout with the full install keeps it
// full. Each entry is then bundled into one file with esbuild (a fraction of a
// second), and only when a source it was built from has changed since, so a
// second start needs neither the registry nor a package manager.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const server = fileURLToPath(new URL('..', import.meta.url));
const root = join(server, '../..');
const out = join(server, 'dist/start');
const pinnedPnpm = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
/** The command that installs the test toolchain and the other runtimes' binaries, for messages. */
const FULL_INSTALL = `npx --yes ${pinnedPnpm} install`;

/**
 * Node 20 and older: past their end of life (Node 20's was 2026-04-30), so
 * outside the support policy (docs/install.md). `npm start` still serves
 * there, on the memory store, and says so in one line.
 */
const PAST_END_OF_LIFE = Number(process.versions.node.split('.')[0]) < 22;

/** How messages name each runtime. @type {Record<string, string>} */
const NAMES = { node: 'Node', bun: 'Bun', deno: 'Deno', workerd: 'workerd' };

/** The workspace packages the server is made of, bundled from their sources. */
const SERVING = [
  'core',
  'adapter-node',
  'adapter-fetch',
  'store-memory',
  'store-postgres',
  'store-rqlite',
  'store-sqlite',
  'store-d1',
  'docs-page',
  'auth-jwt',
];

/**
 * What the last `pnpm install` left: whether it brought the development
 * dependencies too (the full install), and whether it is older than the
 * lockfile, the workspace settings or a manifest of what serving needs.
 * `undefined` when nothing is installed.
 * @returns {{ full: boolean, stale: boolean } | undefined}
 */
function lastInstall() {
  const modules = join(root, 'node_modules/.modules.yaml');
  // esbuild is the root's own dependency: without it, the install was not this layout's.
  if (!existsSync(modules) || !existsSync(join(root, 'node_modules/esbuild/package.json'))) return undefined;
  /** @type {{ included?: { devDependencies?: boolean } }} */
  let state;
  try {
    // pnpm writes this YAML file as JSON.
    state = JSON.parse(readFileSync(modules, 'utf8'));
  } catch {
    return undefined;
  }
  const at = statSync(modules).mtimeMs;
  const inputs = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json', ...[...SERVING, 'server'].map((name) => `packages/${name}/package.json`)];
  return { full: state.included?.devDependencies === true, stale: inputs.some((file) => statSync(join(root, file)).mtimeMs > at) };
}

/**
 * Runs the pinned pnpm: the one running this script under `pnpm start`,
 * otherwise through npm's `exec` (`npx`), from npm's cache when it is there,
 * so that a start with no network does not wait for the registry.
 * @param {string[]} args
 */
function pnpm(args) {
  const execpath = process.env.npm_execpath ?? '';
  const [command, ...prefix] = /pnpm/.test(execpath)
    ? [process.execPath, execpath]
    : /npm-cli\.js$/.test(execpath)
      ? [process.execPath, execpath, 'exec', '--yes', '--prefer-offline', '--', pinnedPnpm]
      : ['npx', '--yes', '--prefer-offline', pinnedPnpm];
  if (!PAST_END_OF_LIFE) {
    execFileSync(command, [...prefix, ...args], { cwd: root, stdio: 'inherit' });
    return;
  }
  // The packages declare Node >=22: pnpm warns once per package, where the one
  // line printed at start already says what Node 20 gets.
  const output = execFileSync(command, [...prefix, ...args], { cwd: root, stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8' });
  const kept = output.split('\n').filter((line) => !/WARN\s+Unsupported engine/.test(line));
  process.stdout.write(kept.join('\n'));
}

/**
 * Installs what `runtime` needs when the last install is missing or stale.
 * Node needs the serving install: `--prod` leaves out every devDependency,
 * the root's toolchain included (pnpm always installs the workspace root
 * along with a filtered selection, https://github.com/pnpm/pnpm/issues/7208).
 * Bun, Deno and workerd come from the full install, which only its own
 * command brings.
 * @param {string} runtime
 */
function ensureInstalled(runtime) {
  const last = lastInstall();
  if (runtime !== 'node' && last?.full !== true) {
    console.error(`plant-store: start:${runtime} runs ${NAMES[runtime]} from the full install, which is not there; run ${FULL_INSTALL} first`);
    process.exit(1);
  }
  if (last !== undefined && !last.stale) return;
  // The tarballs a stale install already fetched come from pnpm's store, not the registry.
  if (last?.full) pnpm(['install', '--prefer-offline']);
  else pnpm(['install', '--frozen-lockfile', '--prefer-offline', '--prod', '--filter', '@plant-store/server...']);
}

/**
 * Every workspace package from its sources, so nothing has to be built first:
 * `@plant-store/<name>` is `packages/<name>/src/index.ts`, and a subpath entry
 * (`@plant-store/adapter-node/internal`) is `src/<subpath>.ts`, as each
 * package's exports map names its built files.
 * @type {import('esbuild').Plugin}
 */
const fromSources = {
  name: 'from-sources',
  setup(build) {
    build.onResolve({ filter: /^@plant-store\/[a-z0-9-]+(\/[a-z0-9-]+)?$/ }, (args) => {
      const [, name, subpath] = /** @type {RegExpExecArray} */ (/^@plant-store\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(args.path));
      if (!SERVING.includes(/** @type {string} */ (name))) return undefined;
      return { path: join(root, 'packages', /** @type {string} */ (name), 'src', `${subpath ?? 'index'}.ts`) };
    });
  },
};

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
    // Written below, each file whole: another start running at the same time reads either bundle, never half of one.
    write: false,
    bundle: true,
    format: 'esm',
    platform,
    target: platform === 'node' ? 'node20' : 'es2022',
    // Only workerd itself stays outside: the launcher starts it from its package; and
    // @opentelemetry/api, imported at run time only where it is installed (an optional peer).
    external: name === 'workerd' ? ['miniflare', '@opentelemetry/api'] : ['@opentelemetry/api'],
    ...(platform === 'neutral'
      ? { mainFields: ['module', 'main'] }
      : // A bundled CommonJS dependency may still call require() for Node built-ins.
        { banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" } }),
    plugins: [fromSources, rawText],
    metafile: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  mkdirSync(out, { recursive: true });
  for (const file of result.outputFiles) writeWhole(file.path, file.contents);
  // This script too: a change in how bundles are built makes them stale.
  // Inputs are relative to the working directory, raw files absolute after their namespace.
  const inputs = [
    fileURLToPath(import.meta.url),
    ...Object.keys(result.metafile?.inputs ?? {}).map((input) => resolve(process.cwd(), input.replace(/^raw-text:/, ''))),
  ];
  // Last, so that a start stopped halfway leaves no record of a bundle it did not finish.
  writeWhole(inputsFile, JSON.stringify(inputs));
  return outfile;
}

/**
 * Writes `path` through a file beside it and a rename.
 * @param {string} path
 * @param {string | Uint8Array} contents
 */
function writeWhole(path, contents) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

/**
 * The directories Deno's server reads and writes: the SQLite file's, where
 * SQLite also keeps the file's `-wal` and `-shm` companions, or the default
 * store's, `.plant-store`; none for `memory:` and PostgreSQL. Read from
 * `PLANT_STORE_DATABASE_URL` as `parseDatabaseUrl` (src/common/_parse-database-url.ts)
 * reads it; a value it refuses grants nothing, and the server says why it
 * cannot start.
 * @param {string | undefined} value
 * @returns {string[]}
 */
function denoStoreDirectories(value) {
  if (value === undefined) return ['.plant-store'];
  const text = value.trim();
  const colon = text.indexOf(':');
  const scheme = colon < 0 ? '' : text.slice(0, colon).toLowerCase();
  let path = '';
  if (scheme === 'sqlite') path = text.slice(colon + 1);
  else if (scheme === 'file') {
    const rest = text.slice('file:'.length);
    try {
      path = decodeURIComponent((rest.startsWith('//') ? rest.slice(rest.indexOf('/', 2)) : rest).split(/[?#]/)[0] ?? '');
    } catch {
      path = '';
    }
  }
  return path === '' ? [] : [dirname(resolve(path))];
}

/**
 * The directories of the TLS certificate and key, each with the variable that
 * names it (`PLANT_STORE_TLS_CERT`, `PLANT_STORE_TLS_KEY`), which Deno's server
 * reads and watches for a renewal. Deno checks a read at the path asked, not
 * at the one a link there points to, so certbot's `live/` directory is enough
 * for links into `archive/`.
 * @returns {[variable: string, directory: string][]}
 */
function denoTlsDirectories() {
  return /** @type {const} */ (['PLANT_STORE_TLS_CERT', 'PLANT_STORE_TLS_KEY']).flatMap((name) => {
    const path = process.env[name]?.trim();
    return path ? [/** @type {[string, string]} */ ([name, dirname(resolve(path))])] : [];
  });
}

/**
 * Deno's permission flags for the server: the network, every variable (the
 * server reads its own, postgres.js the `PG…` ones, and unknown
 * `PLANT_STORE_…` names are looked for), the store's directory, the TLS
 * files' directories (read only), and with `PLANT_STORE_WORKERS` asking for
 * several processes, Deno's own binary, to start the others.
 * @param {string} binary
 * @returns {string[]}
 */
function denoPermissions(binary) {
  const directories = denoStoreDirectories(process.env.PLANT_STORE_DATABASE_URL);
  const tls = denoTlsDirectories();
  // Deno splits a flag's value at every comma, with no way to escape one (https://github.com/denoland/deno/issues/32010).
  const comma = [
    ...directories.map((directory) => /** @type {const} */ (['PLANT_STORE_DATABASE_URL', directory, 'the SQLite file'])),
    ...tls.map(([name, directory]) => /** @type {const} */ ([name, directory, 'the certificate and key'])),
  ].find(([, directory]) => directory.includes(','));
  if (comma !== undefined) {
    const [setting, directory, what] = comma;
    console.error(`plant-store: ${setting}: Deno cannot be granted ${directory}, whose path holds a comma; keep ${what} in another directory`);
    process.exit(1);
  }
  const readable = [...new Set([...directories, ...tls.map(([, directory]) => directory)])];
  return [
    '--allow-net',
    '--allow-env',
    ...(readable.length > 0 ? [`--allow-read=${readable.join(',')}`] : []),
    ...(directories.length > 0 ? [`--allow-write=${directories.join(',')}`] : []),
    ...(Number(process.env.PLANT_STORE_WORKERS?.trim() || '1') > 1 ? [`--allow-run=${binary}`] : []),
  ];
}

const runtime = process.argv[2] ?? 'node';
// What follows the runtime is the server's own (`npm start -- --help`).
const serverArgs = process.argv.slice(3);
const chosen = RUNTIMES[runtime];
if (chosen === undefined) {
  console.error(`plant-store: unknown runtime ${runtime}; expected one of ${Object.keys(RUNTIMES).join(', ')}`);
  process.exit(1);
}
if (PAST_END_OF_LIFE && runtime === 'node') {
  console.error(
    `plant-store: Node ${process.version} is past its end of life and not supported: it serves, in memory only; install Node 22, 24 or 26 for the supported server and its SQLite store`,
  );
}
ensureInstalled(runtime);
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
  // Bun and Deno come from the registry packages the full install brings.
  const require = createRequire(join(root, 'runtime-tests/package.json'));
  const binary =
    runtime === 'bun' ? join(dirname(require.resolve('bun/package.json')), 'bin/bun.exe') : join(dirname(require.resolve('deno/package.json')), 'deno');
  const file = /** @type {string} */ (files[0]);
  const args = runtime === 'bun' ? [file, ...serverArgs] : ['run', ...denoPermissions(binary), file, ...serverArgs];
  const child = spawn(binary, args, { stdio: 'inherit', env: { DO_NOT_TRACK: '1', DENO_NO_UPDATE_CHECK: '1', ...process.env } });
  // A signal sent to this process alone (kill, a supervisor) reaches the server too; it stops gracefully either way.
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
  child.once('exit', (code) => process.exit(code ?? 1));
}
