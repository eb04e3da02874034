#!/usr/bin/env node
// Runs on Node, before vitest in the root "test" script: makes sure the metrics test
// (runtime-tests/metrics.test.ts) has Debian's Prometheus and promtool. When they are
// missing on a Debian-like machine where we are root, it installs Debian's `prometheus`
// package with apt-get, printing each command. Anywhere else it says how to install it
// and exits 0: that test then skips with the same words, since Prometheus is what
// scrapes the server in a deployment (docs/operations.md), not a part of it.
import { spawnSync } from 'node:child_process';
import { ensureDebianPackage } from './apt-install.mjs';
import { DEFAULT_PROMETHEUS, INSTALL_PROMETHEUS, findPrometheus } from '../runtime-tests/support/prometheus.mjs';

ensureDebianPackage({
  label: 'ensure-prometheus',
  find: findPrometheus,
  describe: ({ prometheus }) =>
    `${prometheus} (${(spawnSync(prometheus, ['--version'], { encoding: 'utf8', timeout: 30_000 }).stdout ?? '').split('\n')[0]?.trim() || 'version unknown'})`,
  variable: 'PLANT_STORE_PROMETHEUS',
  chosenFix: 'is not an executable file with promtool beside it; point it at prometheus, or unset it',
  missing: `prometheus (with its promtool) at ${DEFAULT_PROMETHEUS}`,
  package: 'prometheus',
  // Without recommends: the exporters and the console templates are not needed to scrape.
  options: ['--no-install-recommends'],
  cannotInstall: { exitCode: 0, message: `and only root with apt-get installs it here; the metrics test will skip.\n  To run it, ${INSTALL_PROMETHEUS}.` },
});
