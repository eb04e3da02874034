// Runs on Node under Vitest, driving the real Deno binary: every package's JSR
// configuration (packages/*/jsr.json, members of the root deno.jsonc workspace) as
// `deno publish --dry-run` sees it, offline. Deno takes the npm dependencies from the
// repository's node_modules (a package.json beside deno.jsonc makes node_modules the
// source), so the run needs an install but no registry: its DENO_DIR starts empty and
// its proxies lead nowhere. The docs page publishes its build: build first.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runtime } from './runtimes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const denoDir = mkdtempSync(join(tmpdir(), 'plant-store-jsr-'));
afterAll(() => rmSync(denoDir, { recursive: true, force: true }));

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly private?: boolean;
  readonly exports: Record<string, unknown>;
}

interface JsrConfig {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly exports: Record<string, string>;
}

const read = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Every published package directory under packages/, by name. */
const packages = readdirSync(join(root, 'packages'))
  .filter((name) => existsSync(join(root, 'packages', name, 'package.json')))
  .filter((name) => read<Manifest>(join(root, 'packages', name, 'package.json')).private !== true);

/** The JSR export that stands for an npm export: the TypeScript source its build starts from. */
function sourceOf(npmExport: unknown): string | undefined {
  const built = (npmExport as { import?: { default?: string } }).import?.default;
  return built?.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts');
}

/** `deno publish --dry-run` over the workspace, with no network and an empty cache. */
function dryRun(): Promise<{ code: number | null; output: string }> {
  const deno = runtime('Deno').binary;
  return new Promise((resolve, reject) => {
    const child = spawn(deno, ['publish', '--dry-run', '--allow-dirty'], {
      cwd: root,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '/tmp',
        DENO_DIR: denoDir,
        DENO_NO_UPDATE_CHECK: '1',
        NO_COLOR: '1',
        // Any download would fail here: the check must need none.
        HTTP_PROXY: 'http://127.0.0.1:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the JSR configuration', () => {
  it('gives every published package a jsr.json with its npm name, version and license, exporting the sources of its npm entries', () => {
    const workspace = readFileSync(join(root, 'deno.jsonc'), 'utf8');
    for (const name of packages) {
      const dir = join(root, 'packages', name);
      const manifest = read<Manifest>(join(dir, 'package.json'));
      const jsr = read<JsrConfig>(join(dir, 'jsr.json'));
      expect([jsr.name, jsr.version, jsr.license], name).toEqual([manifest.name, manifest.version, manifest.license]);
      expect(workspace, `deno.jsonc lists ${name}`).toContain(`"./packages/${name}"`);
      const npmEntries = Object.keys(manifest.exports).filter((key) => sourceOf(manifest.exports[key]) !== undefined);
      expect(Object.keys(jsr.exports).sort(), name).toEqual(npmEntries.sort());
      for (const [key, path] of Object.entries(jsr.exports)) {
        expect(existsSync(join(dir, path)), `${name} ${key}: ${path}`).toBe(true);
        // The docs page alone is published from its build (see its jsr-entry.ts).
        if (name !== 'docs-page') expect(path, `${name} ${key}`).toBe(sourceOf(manifest.exports[key]));
      }
    }
  });

  it('passes `deno publish --dry-run` for the whole workspace, type check and slow-type check included, offline', async () => {
    const unbuilt = !existsSync(join(root, 'packages/docs-page/dist/index.js'));
    if (unbuilt) throw new Error('packages/docs-page is not built; run `npx --yes pnpm@10.34.9 build` first');
    const { code, output } = await dryRun();
    expect({ code, tail: output.slice(-4000) }).toMatchObject({ code: 0 });
    expect(output).toContain('Success Dry run complete');
    for (const name of packages) expect(output, name).toContain(`Simulating publish of @plant-store/${name}@`);
    // Only the SQLite store's imports of `bun:sqlite`, `node:sqlite` and `node:fs` through
    // variables (so that bundlers for other runtimes leave them alone) are beyond Deno's
    // analysis; they name built-ins, which need no rewriting.
    const warnings = [...output.matchAll(/^warning\[([a-z-]+)\][\s\S]*?--> (\S+?):\d+:\d+$/gm)].map(([, kind, at]) => `${kind} ${at!.replace(root, '')}`);
    expect(new Set(warnings)).toEqual(
      new Set([
        'unanalyzable-dynamic-import packages/store-sqlite/src/open-sqlite.ts',
        'unanalyzable-dynamic-import packages/store-sqlite/src/file-identity.ts',
      ]),
    );
  }, 150_000);
});
