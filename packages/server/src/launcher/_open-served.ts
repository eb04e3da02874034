// Runs in the Node, Bun and Deno launchers.
import { createPlantMetrics, type PlantMetrics } from '@plant-store/core';
import type { BuildOptions, ServedOptions } from '../common/build-options.ts';
import { loadOpenTelemetryTracer } from '../common/load-open-telemetry-tracer.ts';
import { openStore } from './_open-store.ts';
import { processSample } from './_process-sample.ts';
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
 * instead (test fixtures, which keep their own store); with the metrics
 * (unless `PLANT_STORE_METRICS=off`), fed by the store's group commits, and
 * an OpenTelemetry tracer when `@opentelemetry/api` is installed and a
 * tracer provider is registered.
 */
export async function openServed(config: StandaloneConfig, env: StandaloneEnv, build?: BuildOptions): Promise<Served> {
  const metrics = config.metrics ? processMetrics(config) : undefined;
  const tracer = await loadOpenTelemetryTracer();
  const observed = { ...(metrics === undefined ? {} : { metrics }), ...(tracer === undefined ? {} : { tracer }) };
  if (build !== undefined) return { options: { ...build(config, env), ...observed }, store: { description: 'given by the launcher' }, close: async () => {} };
  const opened = await openStore(config.store, metrics === undefined ? undefined : (size) => metrics.observeGroupCommit(size));
  return { options: { store: opened.store, authenticate: config.authenticate, ...observed }, store: opened, close: () => opened.close() };
}

/**
 * The metrics of one process, with its CPU and memory; with several
 * processes on one port, each one's series carry its `process_pid`, since a
 * scrape reaches one process (docs/operations.md, "Several processes").
 */
function processMetrics(config: StandaloneConfig): PlantMetrics {
  return createPlantMetrics({ processSample, ...(config.workers > 1 ? { labels: { process_pid: String(process.pid) } } : {}) });
}
