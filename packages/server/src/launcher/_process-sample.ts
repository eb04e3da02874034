// Runs in the Node, Bun and Deno launchers, which have Node's `process`.
import process from 'node:process';
import type { ProcessSample } from '@plant-store/core';

/**
 * What the runtime says of this process, for the `process_*` metrics: CPU
 * time, resident and heap memory, and when it started. A figure the runtime
 * cannot give is left out rather than failing the scrape.
 */
export function processSample(): ProcessSample {
  const sample: { -readonly [K in keyof ProcessSample]: ProcessSample[K] } = { startTimeSeconds: START_TIME_SECONDS };
  try {
    const { user, system } = process.cpuUsage();
    sample.cpuSeconds = (user + system) / 1e6;
  } catch {
    // Left out.
  }
  try {
    const { rss, heapUsed } = process.memoryUsage();
    sample.residentBytes = rss;
    sample.heapUsedBytes = heapUsed;
  } catch {
    // Left out.
  }
  return sample;
}

const START_TIME_SECONDS = Math.round(Date.now() / 1000 - process.uptime());
