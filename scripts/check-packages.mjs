// Runs on Node (20.11 and later) at the repository root, as the root "check:packages" script (also inside `pnpm test`), with pnpm on PATH: packs every package under packages/ once, as the registry would serve it, and lints each tarball with publint (strict) and arethetypeswrong (the CLI's node16 profile), all in this one process.
// It replaces `pnpm -r exec publint --strict && pnpm -r exec attw --pack . --profile node16`, which started Node, packed and loaded TypeScript again for every package and tool: 35 s to 47 s on the 2-core machine, where this takes 6 s to 7.5 s.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { problemKindInfo } from '@arethetypeswrong/core/problems';
import { publint } from 'publint';
import { formatMessage, getPkgPathValue } from 'publint/utils';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The resolutions that `attw --profile node16` leaves out of its exit code (its `profiles.node16.ignoreResolutions` in
 * @arethetypeswrong/cli 0.18.5): the packages declare `exports`, which node10 resolution predates.
 */
export const IGNORED_RESOLUTIONS = ['node10'];

// The attw CLI's names for resolution kinds, so that a problem reads as it does in the CLI's table.
const RESOLUTION_NAMES = { node10: 'node10', 'node16-cjs': 'node16 (from CJS)', 'node16-esm': 'node16 (from ESM)', bundler: 'bundler' };

// npm pack (what `attw --pack` ran) runs these where publint's pnpm pack ignored them: a package with one would have been
// checked as two different tarballs, and this script could keep only one of them.
const PACK_SCRIPTS = ['prepack', 'prepare', 'postpack'];

/**
 * @typedef {object} WorkspacePackage A package directory under packages/, as `--filter "./packages/*"` selects it.
 * @property {string} dir The directory relative to the root, e.g. `packages/core`.
 * @property {string} name Its package.json's `name`.
 */

/**
 * Every directory under packages/ that holds a package.json, sorted: those are the projects pnpm's `./packages/*` filter
 * selects (private ones included, as `pnpm -r exec` and `pnpm -r pack` both include them).
 *
 * @param {string} root The repository root.
 * @returns {WorkspacePackage[]}
 */
export function listPackages(root) {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'packages', entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const dir = `packages/${name}`;
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
      return { dir, name: manifest.name };
    });
}

/**
 * Why a package cannot be checked the way the two CLIs checked it, or undefined. attw read `.attw.json` from the
 * package's directory and npm ran pack scripts that pnpm (for publint) skipped; neither is modelled here, so such a
 * package stops the check instead of passing with less checked.
 *
 * @param {string} root The repository root.
 * @param {WorkspacePackage} pkg
 * @returns {string | undefined}
 */
export function unsupportedSetup(root, pkg) {
  if (existsSync(join(root, pkg.dir, '.attw.json'))) return `${pkg.dir}/.attw.json configures attw, which this script does not read`;
  const scripts = JSON.parse(readFileSync(join(root, pkg.dir, 'package.json'), 'utf8')).scripts ?? {};
  const found = PACK_SCRIPTS.filter((script) => script in scripts);
  if (found.length > 0) return `${pkg.dir} has ${found.join(', ')}, which npm pack (attw's) ran and pnpm pack (publint's) did not`;
  return undefined;
}

/**
 * Packs the selected packages with one recursive `pnpm pack`, scripts ignored as publint packed them: pnpm rewrites
 * `workspace:` ranges and applies `publishConfig` as publishing does. Resolves with the tarball path by package name.
 *
 * @param {string} root The repository root.
 * @param {string} destination An empty directory for the tarballs.
 * @returns {Promise<Map<string, string>>}
 */
export function packAll(root, destination) {
  const args = ['-r', '--filter', './packages/*', 'pack', '--pack-destination', destination, '--config.ignore-scripts=true', '--json'];
  return new Promise((resolve, reject) => {
    // The pnpm on PATH, as publint's packing and scripts/run-at-once.mjs use it.
    const child = spawn('pnpm', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const stdout = [];
    /** @type {Buffer[]} */
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    child.once('error', (error) => reject(new Error(`pnpm could not start (it must be on PATH): ${error.message}`)));
    child.once('close', (code, signal) => {
      const out = Buffer.concat(stdout).toString();
      const err = Buffer.concat(stderr).toString();
      if (code !== 0) {
        reject(new Error(`pnpm ${args.join(' ')} ended with ${signal ?? `exit ${code}`}:\n${out}${err}`));
        return;
      }
      try {
        // Warnings may come before the JSON; one selected package gives an object rather than an array.
        const parsed = JSON.parse(out.slice(Math.max(0, out.search(/^[[{]/m))));
        resolve(new Map((Array.isArray(parsed) ? parsed : [parsed]).map((entry) => [entry.name, entry.filename])));
      } catch (error) {
        reject(new Error(`could not read pnpm pack's --json output (${error instanceof Error ? error.message : String(error)}):\n${out}${err}`));
      }
    });
  });
}

/**
 * publint's verdict on a tarball as `publint --strict` gives it: warnings count as errors, suggestions are shown
 * but never fail (the CLI sets exit code 1 only when errors remain).
 *
 * @param {Buffer} tarball
 * @param {string} packageDir The package's directory, only to say when a file missing from the tarball is on disk.
 * @returns {Promise<{ errors: string[], suggestions: string[] }>}
 */
export async function lintWithPublint(tarball, packageDir) {
  // A copy: publint takes an ArrayBuffer, and the Buffer's may be a shared pool larger than the file.
  const data = /** @type {ArrayBuffer} */ (tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength));
  const { messages, pkg } = await publint({ pack: { tarball: data }, strict: true, level: 'suggestion' });
  /** @param {import('publint').Message} message */
  const text = (message) => `${message.code}: ${formatMessage(message, pkg, { color: false })}${unpublishedHint(message, pkg, packageDir)}`;
  return {
    errors: messages.filter((message) => message.type !== 'suggestion').map(text),
    suggestions: messages.filter((message) => message.type === 'suggestion').map(text),
  };
}

// Linting the directory, the CLI told a file left out of the tarball (FILE_NOT_PUBLISHED) from one never built; the
// tarball alone cannot, so the directory is asked.
/** @param {import('publint').Message} message @param {Record<string, any>} pkg @param {string} packageDir */
function unpublishedHint(message, pkg, packageDir) {
  if (message.code !== 'FILE_DOES_NOT_EXIST') return '';
  let value;
  try {
    value = getPkgPathValue(pkg, message.path);
  } catch {
    return '';
  }
  if (typeof value !== 'string' || !existsSync(join(packageDir, value))) return '';
  return ' It is on disk but not in the tarball: is it in pkg.files?';
}

/**
 * arethetypeswrong's verdict on a tarball as `attw --profile node16` gives it. Like the CLI's getExitCode, a problem
 * is ignored only when it names a resolution kind that the profile ignores; problems about a file pair or a file's
 * text name none and always count.
 *
 * @param {Buffer} tarball
 * @returns {Promise<{ typed: boolean, problems: string[], ignored: number }>}
 */
export async function checkTypes(tarball) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(tarball)));
  // The CLI exits 0 for a package without types, after saying so.
  if (!analysis.types) return { typed: false, problems: [], ignored: 0 };
  const counted = analysis.problems.filter((problem) => !('resolutionKind' in problem && IGNORED_RESOLUTIONS.includes(problem.resolutionKind)));
  return {
    typed: true,
    problems: counted.map((problem) => describeProblem(analysis.packageName, problem)),
    ignored: analysis.problems.length - counted.length,
  };
}

/**
 * One attw problem in one line: its kind and title, where it was found, and the page that explains it.
 *
 * @param {string} packageName
 * @param {import('@arethetypeswrong/core').Problem} problem
 * @returns {string}
 */
export function describeProblem(packageName, problem) {
  const info = problemKindInfo[problem.kind];
  // attw places the package at /node_modules/<name>/; the path inside the package is what the reader can open.
  const file = (/** @type {string} */ name) => name.replace(`/node_modules/${packageName}/`, '');
  const where = [];
  if ('entrypoint' in problem) {
    where.push(`"${problem.entrypoint === '.' ? packageName : `${packageName}/${problem.entrypoint.slice(2)}`}"`);
  }
  if ('resolutionKind' in problem) where.push(`under ${RESOLUTION_NAMES[problem.resolutionKind] ?? problem.resolutionKind}`);
  if ('typesFileName' in problem) where.push(`types ${file(problem.typesFileName)}, implementation ${file(problem.implementationFileName)}`);
  if ('fileName' in problem) where.push(`in ${file(problem.fileName)}`);
  if ('moduleSpecifier' in problem) where.push(`importing "${problem.moduleSpecifier}" under ${problem.resolutionOption}`);
  if ('missing' in problem && problem.missing.length > 0) where.push(`missing ${problem.missing.join(', ')}`);
  return `${problem.kind} (${info?.title ?? 'unknown problem'}): ${where.join(' ')}${info ? ` ${info.docsUrl}` : ''}`;
}

async function main() {
  const packages = listPackages(ROOT);
  const refusals = packages.map((pkg) => unsupportedSetup(ROOT, pkg)).filter((reason) => reason !== undefined);
  if (refusals.length > 0) {
    for (const reason of refusals) console.error(`check-packages: ${reason}; check it by hand or extend this script.`);
    return 1;
  }

  const destination = mkdtempSync(join(tmpdir(), 'check-packages-'));
  try {
    const tarballs = await packAll(ROOT, destination);
    // Both ways round, so that no package goes unchecked and none is checked that the filter would not select.
    const unpacked = packages.filter((pkg) => !tarballs.has(pkg.name));
    const unexpected = [...tarballs.keys()].filter((name) => !packages.some((pkg) => pkg.name === name));
    if (unpacked.length > 0 || unexpected.length > 0) {
      console.error(
        `check-packages: pnpm packed ${[...tarballs.keys()].join(', ') || 'nothing'}, but packages/ holds ${packages.map((pkg) => `${pkg.name} (${pkg.dir})`).join(', ')}`,
      );
      return 1;
    }

    let failed = 0;
    for (const pkg of packages) {
      const tarball = readFileSync(/** @type {string} */ (tarballs.get(pkg.name)));
      const lines = [];
      let ok = true;
      try {
        const lint = await lintWithPublint(tarball, join(ROOT, pkg.dir));
        for (const error of lint.errors) lines.push(`  publint error: ${error}`);
        for (const suggestion of lint.suggestions) lines.push(`  publint suggestion (does not fail): ${suggestion}`);
        ok &&= lint.errors.length === 0;
        const types = await checkTypes(tarball);
        for (const problem of types.problems) lines.push(`  attw problem: ${problem}`);
        ok &&= types.problems.length === 0;
        const attwSummary = !types.typed
          ? 'attw: no types in the package (not a failure, as in the attw CLI)'
          : `attw: ${types.problems.length} problem(s)${types.ignored > 0 ? `, ${types.ignored} on node10 resolution ignored by the node16 profile` : ''}`;
        lines.unshift(`${ok ? 'ok  ' : 'FAIL'} ${pkg.name} (${pkg.dir}): publint --strict: ${lint.errors.length} error(s); ${attwSummary}`);
      } catch (error) {
        ok = false;
        lines.unshift(`FAIL ${pkg.name} (${pkg.dir}): could not be checked: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
      if (!ok) failed += 1;
      // One stream, so that the packages' lines keep their order wherever the two streams go.
      console.log(lines.join('\n'));
    }
    console.log(`check-packages: ${packages.length} package(s) packed and checked, ${failed} failed`);
    return failed > 0 ? 1 : 0;
  } finally {
    rmSync(destination, { recursive: true, force: true });
  }
}

// Imported (for its functions), it checks nothing.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main().catch((error) => {
    console.error(`check-packages: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  });
}
