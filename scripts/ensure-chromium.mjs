#!/usr/bin/env node
// Makes sure the browser tests have a Chromium (runtime-tests/support/chromium.mjs says where it
// is looked for). When it is missing on a Debian-like machine where we are root, it installs
// Debian's `chromium` package with apt-get, printing each command; anywhere else it stops with
// what to do. Playwright's own browser downloads are never used.
import { execFileSync } from 'node:child_process';
import { ensureDebianPackage } from './apt-install.mjs';
import { DEFAULT_CHROMIUM, findChromium } from '../runtime-tests/support/chromium.mjs';

/**
 * A found Chromium and its version; the Debian wrapper's stderr chatter is dropped.
 *
 * @param {string} path
 */
function describe(path) {
  let version = 'version unknown';
  try {
    version = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).trim();
  } catch {
    // A Chromium that cannot print its version may still launch; the tests will tell.
  }
  return `${path} (${version})`;
}

ensureDebianPackage({
  label: 'ensure-chromium',
  find: findChromium,
  describe,
  variable: 'PLANT_STORE_CHROMIUM',
  chosenFix: 'is not an executable file; point it at a Chromium or Chrome, or unset it',
  missing: `Chromium at ${DEFAULT_CHROMIUM}`,
  package: 'chromium',
  cannotInstall: {
    exitCode: 1,
    message:
      'and it can only be installed here by root with apt-get.\n' +
      '  Install it (on Debian or Ubuntu: sudo apt-get install chromium), or set PLANT_STORE_CHROMIUM to a Chromium or Chrome executable.',
  },
});
