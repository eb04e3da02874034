#!/usr/bin/env node
// Runs on Node, before vitest in the root "test" script: makes sure the metrics test
// (runtime-tests/metrics.test.ts) has Debian's Prometheus and promtool. When they are
// missing on a Debian-like machine where we are root, it installs Debian's `prometheus`
// package with apt-get, printing each command. Anywhere else it says how to install it
// and exits 0: that test then skips with the same words, since Prometheus is what
// scrapes the server in a deployment (docs/operations.md), not a part of it.
import { spawnSync } from 'node:child_process';
import { aptInstall, canAptInstall } from './apt-install.mjs';
import { DEFAULT_PROMETHEUS, INSTALL_PROMETHEUS, findPrometheus } from '../runtime-tests/support/prometheus.mjs';

/** @param {{ prometheus: string }} found */
function report({ prometheus }) {
  const { stdout } = spawnSync(prometheus, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  console.log(`ensure-prometheus: using ${prometheus} (${(stdout ?? '').split('\n')[0]?.trim() || 'version unknown'})`);
}

const found = findPrometheus();
if (found !== undefined) {
  report(found);
  process.exit(0);
}

const chosen = process.env['PLANT_STORE_PROMETHEUS'];
if (chosen !== undefined && chosen !== '') {
  // A path the user chose is never replaced by an install.
  console.error(
    `ensure-prometheus: PLANT_STORE_PROMETHEUS is ${chosen}, which is not an executable file with promtool beside it; point it at prometheus, or unset it`,
  );
  process.exit(1);
}

if (!canAptInstall()) {
  console.log(
    `ensure-prometheus: no prometheus at ${DEFAULT_PROMETHEUS}, and only root with apt-get installs it here; the metrics test will skip.\n  To run it, ${INSTALL_PROMETHEUS}.`,
  );
  process.exit(0);
}

console.log(`ensure-prometheus: no prometheus at ${DEFAULT_PROMETHEUS}; installing Debian's prometheus package`);
// Without recommends: the exporters and the console templates are not needed to scrape.
aptInstall('ensure-prometheus', ['prometheus'], ['--no-install-recommends']);
const installed = findPrometheus();
if (installed === undefined) {
  console.error(`ensure-prometheus: apt-get installed prometheus, but ${DEFAULT_PROMETHEUS} or its promtool is still missing`);
  process.exit(1);
}
report(installed);
