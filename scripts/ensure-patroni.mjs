#!/usr/bin/env node
// Runs on Node, before vitest in the root "test" script: makes sure the Patroni test
// (runtime-tests/clusters/patroni.test.ts) has Debian's etcd, Patroni, HAProxy and PostgreSQL 15.
// When they are missing on a Debian-like machine where we are root, it installs Debian's
// packages with apt-get, printing each command. Anywhere else it says how to install them and
// exits 0: that test then skips with the same words, since Patroni is a deployment
// docs/scaling.md describes, not a part of the store.
import { spawnSync } from 'node:child_process';
import { ensureDebianPackage } from './apt-install.mjs';
import { INSTALL_PATRONI, PATRONI_PACKAGES, findPatroni } from '../runtime-tests/support/patroni-binaries.mjs';

/** @param {string} path @param {string[]} args */
const versionOf = (path, args) => (spawnSync(path, args, { encoding: 'utf8', timeout: 30_000 }).stdout ?? '').split('\n')[0]?.trim() || 'version unknown';

ensureDebianPackage({
  label: 'ensure-patroni',
  find: findPatroni,
  describe: (found) =>
    `${found.patroni} (${versionOf(found.patroni, ['--version'])}), ${found.etcd} (${versionOf(found.etcd, ['--version'])}), ${found.haproxy} (${versionOf(found.haproxy, ['-v'])})`,
  missing: `etcd, Patroni, HAProxy and PostgreSQL 15 where Debian puts them`,
  package: [...PATRONI_PACKAGES],
  // Without recommends: Patroni's optional DCS clients (Consul, ZooKeeper…) are not needed.
  options: ['--no-install-recommends'],
  // Another release may lack these packages (postgresql-15 is Debian 12's): the Patroni test then skips.
  optional: true,
  cannotInstall: { exitCode: 0, message: `and only root with apt-get installs them here; the Patroni test will skip.\n  To run it, ${INSTALL_PATRONI}.` },
});
