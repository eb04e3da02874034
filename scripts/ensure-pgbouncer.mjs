#!/usr/bin/env node
// Runs on Node, before vitest in the root "test" script: makes sure the PgBouncer tests
// (runtime-tests/pgbouncer.test.ts, runtime-tests/postgres-failover.test.ts) have Debian's
// PgBouncer. When it is missing on a Debian-like machine where we are root, it installs
// Debian's `pgbouncer` package with apt-get, printing each command. Anywhere else it says
// how to install it and exits 0: those tests then skip with the same words, since
// PgBouncer is a part of the deployments docs/scaling.md describes, not of the store.
import { spawnSync } from 'node:child_process';
import { aptInstall, canAptInstall } from './apt-install.mjs';
import { DEFAULT_PGBOUNCER, INSTALL_PGBOUNCER, findPgbouncer } from '../runtime-tests/support/pgbouncer.mjs';

/** @param {string} path */
function report(path) {
  const { stdout } = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  console.log(`ensure-pgbouncer: using ${path} (${(stdout ?? '').split('\n')[0]?.trim() || 'version unknown'})`);
}

const found = findPgbouncer();
if (found !== undefined) {
  report(found);
  process.exit(0);
}

const chosen = process.env['PLANT_STORE_PGBOUNCER'];
if (chosen !== undefined && chosen !== '') {
  // A path the user chose is never replaced by an install.
  console.error(`ensure-pgbouncer: PLANT_STORE_PGBOUNCER is ${chosen}, which is not an executable file; point it at pgbouncer, or unset it`);
  process.exit(1);
}

if (!canAptInstall()) {
  console.log(
    `ensure-pgbouncer: no pgbouncer at ${DEFAULT_PGBOUNCER}, and only root with apt-get installs it here; the PgBouncer tests will skip.\n  To run them, ${INSTALL_PGBOUNCER}.`,
  );
  process.exit(0);
}

console.log(`ensure-pgbouncer: no pgbouncer at ${DEFAULT_PGBOUNCER}; installing Debian's pgbouncer package`);
aptInstall('ensure-pgbouncer', ['pgbouncer'], ['--no-install-recommends']);
const installed = findPgbouncer();
if (installed === undefined) {
  console.error(`ensure-pgbouncer: apt-get installed pgbouncer, but ${DEFAULT_PGBOUNCER} is still missing`);
  process.exit(1);
}
report(installed);
