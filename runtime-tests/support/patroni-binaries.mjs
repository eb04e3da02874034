// Runs on Node (vitest and scripts/ensure-patroni.mjs): where the Patroni cluster's binaries are
// (Debian 12's packages) and how to get them. Plain JavaScript so that the ensure script can
// import it without a build.
import { accessSync, constants } from 'node:fs';

/** The binaries the cluster runs, where Debian's packages put them. */
export const PATRONI_BINARIES = Object.freeze({
  etcd: '/usr/bin/etcd',
  patroni: '/usr/bin/patroni',
  patronictl: '/usr/bin/patronictl',
  haproxy: '/usr/sbin/haproxy',
  postgres: '/usr/lib/postgresql/15/bin/postgres',
});

/** Debian's packages that bring {@link PATRONI_BINARIES}. */
export const PATRONI_PACKAGES = Object.freeze(['patroni', 'etcd-server', 'haproxy', 'postgresql-15']);

/** How to get the cluster's binaries where the tests cannot install them. */
export const INSTALL_PATRONI = `install Debian's packages (sudo apt-get install --no-install-recommends ${PATRONI_PACKAGES.join(' ')})`;

/**
 * {@link PATRONI_BINARIES} when every one of them is an executable file here, else undefined.
 *
 * @returns {typeof PATRONI_BINARIES | undefined}
 */
export function findPatroni() {
  for (const path of Object.values(PATRONI_BINARIES)) {
    try {
      accessSync(path, constants.X_OK);
    } catch {
      return undefined;
    }
  }
  return PATRONI_BINARIES;
}
