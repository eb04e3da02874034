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
 * container has no package lists), printing each command as typed; stops
 * the calling script if one fails.
 *
 * @param {string} label the calling script's name, which starts every line it prints
 * @param {string[]} packages
 * @param {string[]} [options] more `apt-get install` options, e.g. `--no-install-recommends`
 */
export function aptInstall(label, packages, options = []) {
  run(label, APT_GET, ['update']);
  run(label, APT_GET, ['install', '-y', ...options, ...packages]);
}

/**
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 */
function run(label, command, args) {
  console.log(`${label}: $ ${[command, ...args].join(' ')}`);
  const { status, error } = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (error !== undefined || status !== 0) {
    console.error(`${label}: \`${[command, ...args].join(' ')}\` failed (${error?.message ?? `exit code ${status}`})`);
    process.exit(1);
  }
}
