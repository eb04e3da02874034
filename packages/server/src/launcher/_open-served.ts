// Runs in the Node, Bun and Deno launchers.
import type { BuildOptions, ServedOptions } from '../common/build-options.ts';
import { openStore } from './_open-store.ts';
import type { StandaloneConfig, StandaloneEnv } from '../common/read-standalone-config.ts';
import type { StoreDescription } from '../common/startup-lines.ts';

/** What a Node, Bun or Deno standalone server serves, and how to let go of it at the end. */
export interface Served {
  readonly options: ServedOptions;
  readonly store: StoreDescription;
  /** Closes the store after the server stopped: pending creates are committed first. */
  close(): Promise<void>;
}

/**
 * The configured store with the configured tokens, or what `build` gives
 * instead (test fixtures, which keep their own store).
 */
export async function openServed(config: StandaloneConfig, env: StandaloneEnv, build?: BuildOptions): Promise<Served> {
  if (build !== undefined) return { options: build(config, env), store: { description: 'given by the launcher' }, close: async () => {} };
  const opened = await openStore(config.store);
  return { options: { store: opened.store, authenticate: config.authenticate }, store: opened, close: () => opened.close() };
}
