// Runs on Node, in the scripts that make sure the tests have a Debian package (ensure-*.mjs):
// installing it with apt-get when we are root on a Debian-like machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const APT_GET = '/usr/bin/apt-get';

/** Whether packages can be installed here: as root, with apt-get. */
export function canAptInstall() {
  return process.getuid?.() === 0 && existsSync(APT_GET);
}

/**
 * Installs Debian packages with apt-get, after one `apt-get update` (a fresh
 * container has no package lists), printing each command as typed. Returns
 * whether both succeeded; what failed is printed.
 *
 * @param {string} label the calling script's name, which starts every line it prints
 * @param {string[]} packages
 * @param {string[]} [options] more `apt-get install` options, e.g. `--no-install-recommends`
 * @returns {boolean}
 */
export function aptInstall(label, packages, options = []) {
  return run(label, APT_GET, ['update']) && run(label, APT_GET, ['install', '-y', ...options, ...packages]);
}

/**
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @returns {boolean}
 */
function run(label, command, args) {
  console.log(`${label}: $ ${[command, ...args].join(' ')}`);
  const { status, error } = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (error === undefined && status === 0) return true;
  console.error(`${label}: \`${[command, ...args].join(' ')}\` failed (${error?.message ?? `exit code ${status}`})`);
  return false;
}

/**
 * What one ensure-*.mjs script makes sure of: a tool the tests need, found
 * where the tests look for it, or Debian's package of it installed.
 *
 * @template T what `find` returns for a tool that is there
 * @typedef {object} DebianTool
 * @property {string} label the script's name, which starts every line it prints
 * @property {() => T | undefined} find where the tests look for the tool
 * @property {(found: T) => string} describe the tool found, for the line that says which is used (path and version)
 * @property {string} [variable] the environment variable naming the tool's path, which an install never overrides (none: only Debian's path is looked at)
 * @property {string} [chosenFix] what to do when that variable names no usable tool
 * @property {string} missing the tool as the tests expect it, e.g. `pgbouncer at /usr/sbin/pgbouncer`
 * @property {string | string[]} package Debian's package, or the packages that bring the tool together
 * @property {string[]} [options] more `apt-get install` options
 * @property {{ exitCode: 0 | 1, message: string }} cannotInstall what to say where it cannot be installed (not root, no apt-get, or, for an `optional` tool, an install that failed), and whether that stops the test command
 * @property {boolean} [optional] whether an install that fails (a release without the package) only skips the tests that need the tool, as `cannotInstall` says, rather than stop the test command
 */

/**
 * Makes sure of a {@link DebianTool}: says which one is used, or installs its
 * package when we are root with apt-get, or else says what to do and exits
 * with `cannotInstall.exitCode`. A path the user chose is never replaced.
 *
 * @template T
 * @param {DebianTool<T>} tool
 */
export function ensureDebianPackage(tool) {
  const { label } = tool;
  const found = tool.find();
  if (found !== undefined) {
    console.log(`${label}: using ${tool.describe(found)}`);
    return;
  }
  const chosen = tool.variable === undefined ? undefined : process.env[tool.variable];
  if (chosen !== undefined && chosen !== '') {
    console.error(`${label}: ${tool.variable} is ${chosen}, which ${tool.chosenFix}`);
    process.exit(1);
  }
  if (!canAptInstall()) {
    (tool.cannotInstall.exitCode === 0 ? console.log : console.error)(`${label}: no ${tool.missing}, ${tool.cannotInstall.message}`);
    process.exit(tool.cannotInstall.exitCode);
  }
  const packages = [tool.package].flat();
  console.log(`${label}: no ${tool.missing}; installing Debian's ${packages.join(', ')} package${packages.length > 1 ? 's' : ''}`);
  if (!aptInstall(label, packages, tool.options)) {
    if (tool.optional !== true) process.exit(1);
    (tool.cannotInstall.exitCode === 0 ? console.log : console.error)(`${label}: no ${tool.missing}, ${tool.cannotInstall.message}`);
    process.exit(tool.cannotInstall.exitCode);
  }
  const installed = tool.find();
  if (installed === undefined) {
    console.error(`${label}: apt-get installed ${packages.join(', ')}, but no ${tool.missing} still`);
    process.exit(1);
  }
  console.log(`${label}: using ${tool.describe(installed)}`);
}
