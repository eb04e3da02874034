/** The binaries the Patroni cluster runs, where Debian's packages put them; see patroni-binaries.mjs. */
export const PATRONI_BINARIES: {
  readonly etcd: string;
  readonly patroni: string;
  readonly patronictl: string;
  readonly haproxy: string;
  readonly postgres: string;
};
/** Debian's packages that bring {@link PATRONI_BINARIES}. */
export const PATRONI_PACKAGES: readonly string[];
/** How to get the cluster's binaries where the tests cannot install them. */
export const INSTALL_PATRONI: string;
/** {@link PATRONI_BINARIES} when every one of them is an executable file here, else undefined. */
export function findPatroni(): typeof PATRONI_BINARIES | undefined;
