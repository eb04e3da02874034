// The browser of the browser tests: Debian's Chromium (or the one PLANT_STORE_CHROMIUM names),
// driven by playwright-core. Playwright never downloads a browser here; scripts/ensure-chromium.mjs
// installs Debian's package where it is missing. Plain JavaScript, so that the script can use it
// before anything is built.
import { accessSync, constants } from 'node:fs';

/** Where Chromium is looked for when PLANT_STORE_CHROMIUM is unset: Debian's `chromium` package. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** @param {string} path */
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium executable to drive: PLANT_STORE_CHROMIUM when set (only it: a
 * path the user chose is never silently replaced), else Debian's. Undefined
 * when it is not there or cannot be run.
 *
 * @returns {string | undefined}
 */
export function findChromium() {
  const chosen = process.env.PLANT_STORE_CHROMIUM;
  const path = chosen !== undefined && chosen !== '' ? chosen : DEFAULT_CHROMIUM;
  return isExecutable(path) ? path : undefined;
}

/**
 * Launches the Chromium {@link findChromium} finds, headless.
 *
 * @param {import('playwright-core').LaunchOptions} [options] more launch options; `args` are added to the defaults.
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchChromium(options = {}) {
  const executablePath = findChromium();
  if (executablePath === undefined) {
    const wanted = process.env.PLANT_STORE_CHROMIUM || DEFAULT_CHROMIUM;
    throw new Error(`no Chromium at ${wanted}: run \`node scripts/ensure-chromium.mjs\`, or set PLANT_STORE_CHROMIUM to a Chromium or Chrome executable`);
  }
  // Imported here, so that finding Chromium needs no installed packages.
  const { chromium } = await import('playwright-core');
  // Chromium's sandbox refuses to start as root, which CI machines and containers often are.
  const asRoot = process.getuid?.() === 0;
  return chromium.launch({
    timeout: 30_000,
    ...options,
    executablePath,
    headless: true,
    args: [...(asRoot ? ['--no-sandbox'] : []), ...(options.args ?? [])],
  });
}
