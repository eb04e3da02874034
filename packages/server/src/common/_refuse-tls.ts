// Runs in the Deno launcher: plain data.
import type { StandaloneConfig } from './read-standalone-config.ts';

/**
 * Stops the start where TLS is asked for on a runtime that does not serve it
 * yet: serving plain HTTP instead would send the bearer tokens in the clear
 * that the setting was meant to protect.
 *
 * @throws TypeError naming `PLANT_STORE_TLS_CERT` when `config.tls` is set
 */
export function refuseTls(config: Pick<StandaloneConfig, 'tls'>, runtime: 'Deno'): void {
  if (config.tls === undefined) return;
  throw new TypeError(
    `PLANT_STORE_TLS_CERT: the standalone server serves HTTPS on Node, Bun and workerd only so far, not on ${runtime}; run it on Node (npm start) or Bun, or put a proxy that ends TLS in front and unset PLANT_STORE_TLS_CERT and PLANT_STORE_TLS_KEY`,
  );
}
