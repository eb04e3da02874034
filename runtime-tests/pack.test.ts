// The publishable packages as a user gets them: packed by pnpm (which turns
// `workspace:*` into versions), installed by npm from the tarballs into a fresh
// project, then run from there: a server from the installed adapter, store and
// core, the installed `plant-store` command, the installed client, and every
// package's CommonJS and ES module builds. Then docs/install.md's commands for
// installing from the tarballs, run as written from their snippet files with npm,
// pnpm, Bun and Deno, each in a fresh project beside the tarballs, and a create
// through what each installed. Needs the packages built first.
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit, runtime, spawnListening } from './runtimes.ts';
import { cleanEnv, installTarballs, packPublishable, PUBLISHABLE, requireBuilt } from './support/publishable.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'pack-token';
const PNPM = ['--yes', 'pnpm@10.34.9'];

const work = mkdtempSync(join(tmpdir(), 'plant-store-pack-'));
// The name docs/install.md gives the directory, beside the projects that install from it.
const packs = join(work, 'plant-store-packs');
const project = join(work, 'project');
const closers: (() => Promise<unknown>)[] = [];
let tarballs = new Map<string, string>();
const seconds = { pack: 0, install: 0 };

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  rmSync(work, { recursive: true, force: true });
});

/** Runs a command to its end within `timeoutMs`; rejects with its output if it fails. */
async function run(command: string, args: readonly string[], cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = cleanEnv()): Promise<string> {
  const { code, stdout, stderr, ms } = await runToExit(command, args, { cwd, env, killAfterMs: timeoutMs });
  if (code === 0) return stdout;
  throw new Error(
    `${command} ${args.join(' ')} ${code === null && ms >= timeoutMs ? `took over ${timeoutMs} ms` : `exited with ${code}`}:\n${stdout}\n${stderr}`,
  );
}

async function timed<T>(key: keyof typeof seconds, action: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await action();
  } finally {
    seconds[key] = (performance.now() - start) / 1000;
  }
}

/**
 * Bytes of the files under `dir` (their length, not the disk blocks they take),
 * leaving out nested node_modules unless `nested`: a package's own dependencies
 * are counted as such.
 */
function sizeOf(dir: string, nested = false): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!entry.isDirectory()) total += lstatSync(path).size;
    else if (nested || entry.name !== 'node_modules') total += sizeOf(path, nested);
  }
  return total;
}

/** Where Node finds package `name` from `dir`, as it would resolve it. */
function resolvePackage(dir: string, name: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

/** The installed package directory and every package it needs at run time, transitively (optional peers left out). */
function installedClosure(dir: string): Set<string> {
  const found = new Set([dir]);
  const pending = [dir];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const manifest = JSON.parse(readFileSync(join(next, 'package.json'), 'utf8')) as { dependencies?: object; optionalDependencies?: object };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const resolved = resolvePackage(next, name);
      if (resolved !== undefined && !found.has(resolved)) {
        found.add(resolved);
        pending.push(resolved);
      }
    }
  }
  return found;
}

/** `4.5 KiB`, `3.58 MiB`. */
const formatSize = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(2)} MiB`);

/** Runs the installed client, from inside the project, against `baseUrl`: creates an exact id twice (a replay). */
async function createThroughClient(baseUrl: string, id: string): Promise<unknown> {
  const output = await run(process.execPath, ['create-with-client.mjs', baseUrl, TOKEN, id], project, 20_000);
  return JSON.parse(output) as unknown;
}

beforeAll(async () => {
  requireBuilt();
  mkdirSync(packs);
  mkdirSync(project);
  tarballs = await timed('pack', () => packPublishable(packs));
  await timed('install', () => installTarballs(project, 'plant-store-pack-check', tarballs.values()));
  writeFileSync(
    join(project, 'server.mjs'),
    `import { createServer } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

const server = createServer(createNodeHandler({ store: createMemoryStore(), authenticate: staticTokens([process.env.PLANT_TOKEN]) }));
server.listen(0, '127.0.0.1', () => console.log(\`listening on http://127.0.0.1:\${server.address().port}\`));
`,
  );
  writeFileSync(
    join(project, 'create-with-client.mjs'),
    `import { createPlantClient } from '@plant-store/client';

const [baseUrl, token, id] = process.argv.slice(2);
const client = createPlantClient({ baseUrl, token });
const plant = { id: BigInt(id), name: 'Packed', tag: 'tarball' };
console.log(JSON.stringify([await client.createPlant(plant), await client.createPlant(plant)]));
`,
  );
}, 200_000);

describe('the packages, packed and installed from their tarballs', () => {
  it('packs every publishable package and installs each with versions for workspace:*, from the tarballs alone', () => {
    expect([...tarballs.keys()].sort()).toEqual(PUBLISHABLE.map(({ name }) => name).sort());
    const rows: string[] = [];
    let ownTotal = 0;
    for (const { name, version } of PUBLISHABLE) {
      const dir = join(project, 'node_modules', name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };
      expect(manifest.version, name).toBe(version);
      for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) expect(range, `${name} → ${dependency}`).not.toMatch(/^workspace:/);
      // One copy of each Plant Store package: the tarball's, never another version fetched from a registry.
      expect(existsSync(join(dir, 'node_modules', '@plant-store')), `${name} has its own @plant-store copies`).toBe(false);
      const own = sizeOf(dir);
      const withDependencies = [...installedClosure(dir)].reduce((sum, at) => sum + sizeOf(at), 0);
      ownTotal += own;
      rows.push(`| ${name} | ${formatSize(statSync(tarballs.get(name)!).size)} | ${formatSize(own)} | ${formatSize(withDependencies)} |`);
    }
    console.log(
      [
        `packed in ${seconds.pack.toFixed(1)} s, installed in ${seconds.install.toFixed(1)} s`,
        '| package | tarball | installed | installed with its dependencies |',
        '|---|---|---|---|',
        ...rows,
        `| all Plant Store packages | | ${formatSize(ownTotal)} | all of node_modules: ${formatSize(sizeOf(join(project, 'node_modules'), true))} |`,
      ].join('\n'),
    );
  });

  it('serves from the installed adapter-node, store-memory and core, and the installed client creates a plant there', async () => {
    const server = await spawnListening('installed packages', process.execPath, ['server.mjs'], { PLANT_TOKEN: TOKEN }, project);
    closers.push(() => server.close());
    expect(await createThroughClient(server.baseUrl, '9007199254740993')).toEqual([
      { name: 'Packed', tag: 'tarball' },
      { name: 'Packed', tag: 'tarball' },
    ]);
    // The neighbouring id a double would round to is another plant: the id came through exact.
    const neighbour = await send(server.baseUrl, {
      path: '/plants',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":9007199254740992,"name":"Other"}',
    });
    expect([neighbour.status, neighbour.body]).toEqual([200, '{"name":"Other"}']);
  });

  it('serves with the installed plant-store command on PORT=0, and the installed client creates a plant there', async () => {
    const server = await spawnListening(
      'plant-store command',
      join(project, 'node_modules/.bin/plant-store'),
      [],
      { PLANT_STORE_TOKENS: TOKEN, PLANT_STORE_ACCESS_LOG: 'off' },
      project,
    );
    closers.push(() => server.close());
    expect(await createThroughClient(server.baseUrl, '-9223372036854775808')).toEqual([
      { name: 'Packed', tag: 'tarball' },
      { name: 'Packed', tag: 'tarball' },
    ]);
  });

  it("loads every package's main entry with require() from its CommonJS build and with import from its ES module build", async () => {
    // The testing kit's suites are Vitest's describe/it, and Vitest refuses require(): its main
    // entry loads only with import, and its Vitest-free entries load either way.
    const entries = [...PUBLISHABLE.map(({ name }) => name), '@plant-store/testing/scenarios', '@plant-store/testing/store-contract'];
    const load = (how: string) => `const loaded = [];
for (const name of ${JSON.stringify(entries)}) {
  try {
    const entry = ${how};
    loaded.push(\`\${name}: \${Object.keys(entry).length > 0 ? 'ok' : 'empty'}\`);
  } catch (error) {
    loaded.push(\`\${name}: \${String(error.message).split('\\n')[0]}\`);
  }
}
console.log(JSON.stringify(loaded));
`;
    writeFileSync(join(project, 'load.cjs'), load('require(name)'));
    writeFileSync(join(project, 'load.mjs'), load('await import(name)'));
    const loaded = async (script: string) => JSON.parse(await run(process.execPath, [script], project, 20_000)) as string[];
    const ok = entries.map((name) => `${name}: ok`);
    expect(await loaded('load.mjs')).toEqual(ok);
    const refused = '@plant-store/testing: Vitest cannot be imported in a CommonJS module using require(). Please use "import" instead.';
    expect(await loaded('load.cjs')).toEqual(ok.map((line) => (line === '@plant-store/testing: ok' ? refused : line)));
  });
});

/** A snippet of docs/install.md, as a path. */
const snippet = (name: string) => join(root, 'docs/snippets', name);

/**
 * A directory of `pnpm`, `bun` and `deno` commands, first on the PATH of the install
 * commands: the snippets call them by name, as a user's shell would, and the test run
 * takes them from the registry packages the repository installs.
 */
function commandsDir(): string {
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'pnpm'), `#!/bin/sh\nexec npx ${PNPM.join(' ')} "$@"\n`, { mode: 0o755 });
  symlinkSync(runtime('Bun').binary, join(bin, 'bun'));
  symlinkSync(runtime('Deno').binary, join(bin, 'deno'));
  return bin;
}

/** A fresh project beside the tarballs, `files` copied in (target name → snippet), and the snippet `install` run in it by `sh`. */
async function installAsDocumented(name: string, files: Record<string, string>, install: string): Promise<string> {
  const dir = join(work, name);
  mkdirSync(dir);
  for (const [target, source] of Object.entries(files)) copyFileSync(snippet(source), join(dir, target));
  const bin = existsSync(join(work, 'bin')) ? join(work, 'bin') : commandsDir();
  await run('sh', [snippet(install)], dir, 180_000, { ...cleanEnv(), PATH: `${bin}:${process.env['PATH'] ?? ''}`, DENO_NO_UPDATE_CHECK: '1' });
  return dir;
}

/** One create through a Fetch handler built from the installed packages, run by Bun or Deno in the project. */
const FETCH_CHECK = `import { staticTokens } from '@plant-store/core';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { createMemoryStore } from '@plant-store/store-memory';

const handle = createFetchHandler({ store: createMemoryStore(), authenticate: staticTokens(['${TOKEN}']) });
const response = await handle(
  new Request('http://localhost/plants', {
    method: 'POST',
    headers: { authorization: 'Bearer ${TOKEN}', 'content-type': 'application/json' },
    body: '{"id":9007199254740993,"name":"Installed"}',
  }),
);
console.log(response.status, await response.text());
`;

/** The server of server.mjs, from the project at `dir`, answers a create. */
async function createThroughNodeServer(dir: string): Promise<[number, string]> {
  copyFileSync(join(project, 'server.mjs'), join(dir, 'server.mjs'));
  const server = await spawnListening(`server in ${dir}`, process.execPath, ['server.mjs'], { PLANT_TOKEN: TOKEN }, dir);
  try {
    const answer = await send(server.baseUrl, {
      path: '/plants',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":9007199254740993,"name":"Installed"}',
    });
    return [answer.status, answer.body];
  } finally {
    await server.close();
  }
}

/** The version of `name` installed in the project at `dir`. */
function installedFrom(dir: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

describe("docs/install.md's commands, from the tarballs, as written", () => {
  const created = [200, '{"name":"Installed"}'];

  it('npm: installs the three tarballs in one command, and the mount serves', async () => {
    const dir = await installAsDocumented('app-npm', { 'package.json': 'packs-package.json' }, 'install-npm.sh');
    expect(installedFrom(dir, '@plant-store/core')).toBe(tarballVersion('@plant-store/core'));
    expect(await createThroughNodeServer(dir)).toEqual(created);
  }, 240_000);

  it("pnpm: installs them with the package.json's resolutions, and the mount serves", async () => {
    const dir = await installAsDocumented('app-pnpm', { 'package.json': 'packs-package.json' }, 'install-pnpm.sh');
    expect(await createThroughNodeServer(dir)).toEqual(created);
  }, 240_000);

  it("Bun: resolves the adapter's and the store's @plant-store/core to the core tarball through the resolutions, and a Fetch handler creates", async () => {
    const dir = await installAsDocumented('app-bun', { 'package.json': 'packs-package.json' }, 'install-bun.sh');
    expect(existsSync(join(dir, 'node_modules/@plant-store/adapter-fetch/node_modules')), 'a second core under the adapter').toBe(false);
    writeFileSync(join(dir, 'check.ts'), FETCH_CHECK);
    expect(await run(runtime('Bun').binary, ['check.ts'], dir, 30_000)).toBe(`200 ${created[1]}\n`);
  }, 240_000);

  it('Deno: links the unpacked tarballs in deno.json, installs, and a Fetch handler creates', async () => {
    const dir = await installAsDocumented('app-deno', { 'deno.json': 'packs-deno.json' }, 'install-deno.sh');
    writeFileSync(join(dir, 'check.ts'), FETCH_CHECK);
    const env = { ...cleanEnv(), DENO_NO_UPDATE_CHECK: '1' };
    expect(await run(runtime('Deno').binary, ['run', 'check.ts'], dir, 60_000, env)).toBe(`200 ${created[1]}\n`);
  }, 240_000);
});

/** The version in a package's tarball name, as pnpm wrote it. */
function tarballVersion(name: string): string {
  return /-(\d+\.\d+\.\d+[^/]*)\.tgz$/.exec(tarballs.get(name)!)![1]!;
}
