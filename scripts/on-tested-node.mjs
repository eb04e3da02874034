#!/usr/bin/env node
// Runs on any Node the README allows (20 and later), first in the root "test" script: runs
// the command it is given with the toolchain's Node first on PATH, the Node 24 binary of
// runtime-tests' `node24` package (from the npm registry, installed by `pnpm install`).
// The test tools' current majors (vitest 5, tsup 9, OpenTelemetry SDK 3,
// @whatwg-node/server 0.13) need Node 22.12 to 22.18 or later, and the machine's own Node
// may be older (Node 20 is past its end of life): with this, `pnpm test` runs the same
// toolchain on the same Node wherever it starts. Exits with the command's exit code.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error('on-tested-node: name a command to run, e.g. `node scripts/on-tested-node.mjs pnpm run test:all`');
  process.exit(2);
}
const runtimeTests = fileURLToPath(new URL('../runtime-tests/', import.meta.url));
const bin = join(dirname(createRequire(runtimeTests).resolve('node24/package.json')), 'bin');
const result = spawnSync(command, args, {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` },
});
if (result.error !== undefined) {
  console.error(`on-tested-node: ${command} could not start: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
