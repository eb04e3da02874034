#!/usr/bin/env node
// Runs on Node, before vitest in the root "test" script: makes sure the SQLite fault test that
// fails a disk's writes on demand (runtime-tests/sqlite-faults.test.ts, through
// runtime-tests/support/faultfs.py) has Debian's python3-fusepy. When it is missing on a
// Debian-like machine where we are root, it installs the package with apt-get, printing each
// command. Anywhere else it says how to install it and exits 0: that test then skips with the
// same words (it also needs root and /dev/fuse to mount).
import { existsSync } from 'node:fs';
import { ensureDebianPackage } from './apt-install.mjs';

const FUSEPY = '/usr/lib/python3/dist-packages/fusepy.py';

ensureDebianPackage({
  label: 'ensure-fusepy',
  find: () => (existsSync(FUSEPY) ? FUSEPY : undefined),
  describe: (path) => path,
  missing: `fusepy at ${FUSEPY}`,
  package: 'python3-fusepy',
  options: ['--no-install-recommends'],
  optional: true,
  cannotInstall: {
    exitCode: 0,
    message:
      "and only root with apt-get installs it here; the SQLite fault test on a failing disk will skip.\n  To run it, install Debian's python3-fusepy (sudo apt-get install --no-install-recommends python3-fusepy).",
  },
});
