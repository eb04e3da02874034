import type { Browser, LaunchOptions } from 'playwright-core';

/** Where Chromium is looked for when PLANT_STORE_CHROMIUM is unset: `/usr/bin/chromium`, Debian's `chromium` package. */
export const DEFAULT_CHROMIUM: string;

/** The Chromium executable: PLANT_STORE_CHROMIUM when set, else Debian's; undefined when it is missing or not executable. */
export function findChromium(): string | undefined;

/**
 * Launches that Chromium headless through playwright-core (never a downloaded
 * browser), with `--no-sandbox` when running as root.
 *
 * @throws Error naming the path looked at and `scripts/ensure-chromium.mjs` when there is no Chromium.
 */
export function launchChromium(options?: LaunchOptions): Promise<Browser>;
