#!/usr/bin/env node
// Runs on Node, before vitest in the root "test" script: makes sure the PgBouncer tests
// (runtime-tests/pgbouncer.test.ts, runtime-tests/postgres-failover.test.ts) have Debian's
// PgBouncer. When it is missing on a Debian-like machine where we are root, it installs
// Debian's `pgbouncer` package with apt-get, printing each command. Anywhere else it says
// how to install it and exits 0: those tests then skip with the same words, since
// PgBouncer is a part of the deployments docs/scaling.md describes, not of the store.
import { spawnSync } from 'node:child_process';
import { ensureDebianPackage } from './apt-install.mjs';
import { DEFAULT_PGBOUNCER, INSTALL_PGBOUNCER, findPgbouncer } from '../runtime-tests/support/pgbouncer.mjs';

ensureDebianPackage({
  label: 'ensure-pgbouncer',
  find: findPgbouncer,
  describe: (path) =>
    `${path} (${(spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 }).stdout ?? '').split('\n')[0]?.trim() || 'version unknown'})`,
  variable: 'PLANT_STORE_PGBOUNCER',
  chosenFix: 'is not an executable file; point it at pgbouncer, or unset it',
  missing: `pgbouncer at ${DEFAULT_PGBOUNCER}`,
  package: 'pgbouncer',
  options: ['--no-install-recommends'],
  cannotInstall: { exitCode: 0, message: `and only root with apt-get installs it here; the PgBouncer tests will skip.\n  To run them, ${INSTALL_PGBOUNCER}.` },
});
