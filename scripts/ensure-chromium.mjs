#!/usr/bin/env node
// Makes sure the browser tests have a Chromium (runtime-tests/support/chromium.mjs says where it
// is looked for). When it is missing on a Debian-like machine where we are root, it installs
// Debian's `chromium` package with apt-get, printing each command; anywhere else it stops with
// what to do. Playwright's own browser downloads are never used.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DEFAULT_CHROMIUM, findChromium } from '../runtime-tests/support/chromium.mjs';

const APT_GET = '/usr/bin/apt-get';

/**
 * Prints a found Chromium's version; the Debian wrapper's stderr chatter is dropped.
 *
 * @param {string} path
 */
function report(path) {
  let version = 'version unknown';
  try {
    version = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).trim();
  } catch {
    // A Chromium that cannot print its version may still launch; the tests will tell.
  }
  console.log(`ensure-chromium: using ${path} (${version})`);
}

/**
 * Runs a command as it would be typed, with its output shown; stops the script if it fails.
 *
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  console.log(`ensure-chromium: $ ${[command, ...args].join(' ')}`);
  const { status, error } = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (error !== undefined || status !== 0) {
    console.error(`ensure-chromium: \`${[command, ...args].join(' ')}\` failed (${error?.message ?? `exit code ${status}`})`);
    process.exit(1);
  }
}

const found = findChromium();
if (found !== undefined) {
  report(found);
  process.exit(0);
}

const chosen = process.env.PLANT_STORE_CHROMIUM;
if (chosen !== undefined && chosen !== '') {
  // A path the user chose is never replaced by an install.
  console.error(`ensure-chromium: PLANT_STORE_CHROMIUM is ${chosen}, which is not an executable file; point it at a Chromium or Chrome, or unset it`);
  process.exit(1);
}

if (process.getuid?.() !== 0 || !existsSync(APT_GET)) {
  console.error(
    `ensure-chromium: no Chromium at ${DEFAULT_CHROMIUM}, and it can only be installed here by root with apt-get.\n` +
      `  Install it (on Debian or Ubuntu: sudo apt-get install chromium), or set PLANT_STORE_CHROMIUM to a Chromium or Chrome executable.`,
  );
  process.exit(1);
}

console.log(`ensure-chromium: no Chromium at ${DEFAULT_CHROMIUM}; installing Debian's chromium package`);
run(APT_GET, ['update']);
run(APT_GET, ['install', '-y', 'chromium']);
const installed = findChromium();
if (installed === undefined) {
  console.error(`ensure-chromium: apt-get installed chromium, but ${DEFAULT_CHROMIUM} is still missing`);
  process.exit(1);
}
report(installed);
