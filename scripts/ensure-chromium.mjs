#!/usr/bin/env node
// Makes sure the browser tests have a Chromium (runtime-tests/support/chromium.mjs says where it
// is looked for). When it is missing on a Debian-like machine where we are root, it installs
// Debian's `chromium` package with apt-get, printing each command; anywhere else it stops with
// what to do. Playwright's own browser downloads are never used.
import { execFileSync } from 'node:child_process';
import { aptInstall, canAptInstall } from './apt-install.mjs';
import { DEFAULT_CHROMIUM, findChromium } from '../runtime-tests/support/chromium.mjs';

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

if (!canAptInstall()) {
  console.error(
    `ensure-chromium: no Chromium at ${DEFAULT_CHROMIUM}, and it can only be installed here by root with apt-get.\n` +
      `  Install it (on Debian or Ubuntu: sudo apt-get install chromium), or set PLANT_STORE_CHROMIUM to a Chromium or Chrome executable.`,
  );
  process.exit(1);
}

console.log(`ensure-chromium: no Chromium at ${DEFAULT_CHROMIUM}; installing Debian's chromium package`);
aptInstall('ensure-chromium', ['chromium']);
const installed = findChromium();
if (installed === undefined) {
  console.error(`ensure-chromium: apt-get installed chromium, but ${DEFAULT_CHROMIUM} is still missing`);
  process.exit(1);
}
report(installed);
