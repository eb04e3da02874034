// Runs in the test process (Node): the publishable packages as a user gets them, packed by pnpm
// (which turns `workspace:*` into versions) and installed by npm from the tarballs into a fresh
// project outside the workspace.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToExit } from '../runtimes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A package npm would publish. */
export interface Publishable {
  readonly name: string;
  readonly version: string;
  readonly dir: string;
}

/** Every package under packages/ that is not private, as npm would publish it. */
export const PUBLISHABLE: readonly Publishable[] = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; private?: boolean } }))
  .filter(({ manifest }) => manifest.private !== true)
  .map(({ dir, manifest }) => ({ name: manifest.name, version: manifest.version, dir }));

/**
 * The test run's environment without the `npm_*` settings a package manager running it passes
 * down: pnpm and npm reach the registry as they would for a user (its certificates included).
 */
export function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

/** Throws, naming them, when packages are not built: their tarballs would lack `dist`. */
export function requireBuilt(): void {
  const unbuilt = PUBLISHABLE.filter(({ dir }) => !existsSync(join(dir, 'dist'))).map(({ name }) => name);
  if (unbuilt.length > 0) throw new Error(`not built: ${unbuilt.join(', ')}; run \`npx --yes pnpm@10.34.9 build\` first`);
}

/** Runs a package manager to its end within `killAfterMs`; throws with its output unless it exits 0. */
async function runPackageManager(command: string, args: readonly string[], cwd: string, killAfterMs: number): Promise<string> {
  const { code, stdout, stderr } = await runToExit(command, args, { cwd, env: cleanEnv(), killAfterMs });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`);
  return stdout;
}

/** Packs every publishable package into `destination`; resolves with each tarball's path, by package name. */
export async function packPublishable(destination: string): Promise<Map<string, string>> {
  const filters = PUBLISHABLE.flatMap(({ name }) => ['--filter', name]);
  const packed = await runPackageManager('npx', ['--yes', 'pnpm@10.34.9', '-r', ...filters, 'pack', '--pack-destination', destination, '--json'], root, 60_000);
  return new Map((JSON.parse(packed) as { name: string; filename: string }[]).map(({ name, filename }) => [name, filename]));
}

/**
 * Makes `project` (an existing empty directory) an ES-module project named `name` and installs
 * `tarballs` there with npm, as a user would; `npmArgs` adds to npm's own.
 */
export async function installTarballs(project: string, name: string, tarballs: Iterable<string>, npmArgs: readonly string[] = []): Promise<void> {
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await runPackageManager('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...npmArgs, ...tarballs], project, 120_000);
}
