import type { StandaloneConfig } from './read-standalone-config.ts';

/** The lines a standalone server prints at start, the same on every runtime. */
export function startupLines(config: StandaloneConfig, url: string): string[] {
  const lines = [`plant-store listening on ${url} (store: ${config.databaseUrl === undefined ? 'memory' : 'postgres'})`];
  if (config.generatedToken !== undefined) {
    lines.push(`plant-store: PLANT_STORE_TOKENS is not set; the only accepted token is ${config.generatedToken}`);
  }
  return lines;
}
