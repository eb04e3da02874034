import type { StandaloneConfig } from './read-standalone-config.ts';

/** What the startup line says of the store: where it keeps plants, and a warning when they will not last. */
export interface StoreDescription {
  readonly description: string;
  readonly warning?: string | undefined;
}

/** The lines a standalone server prints at start, the same on every runtime; printed in one write, so that a reader who waits for the first sees them all. */
export function startupLines(config: StandaloneConfig, url: string, store: StoreDescription): string[] {
  const lines = [`plant-store listening on ${url} (store: ${store.description})`];
  if (store.warning !== undefined) lines.push(store.warning);
  if (config.generatedToken !== undefined) {
    lines.push(`plant-store: PLANT_STORE_TOKENS is not set; the only accepted token is ${config.generatedToken}`);
  }
  return lines;
}
