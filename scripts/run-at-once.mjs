#!/usr/bin/env node
// Runs on Node, in the root "test:all" script: runs the package scripts it is named at once (the checks that need
// only the build: types, formatting, the packed packages) and exits 1 if any of them failed. Each one's output is
// printed whole once all have ended, those that failed last, so that their lines do not interleave. On the 2-core
// machine the three took 38 s together where they take 44 s one after another.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('run-at-once: name the package scripts to run, e.g. `node scripts/run-at-once.mjs typecheck format:check`');
  process.exit(2);
}

const children = new Set();
// Stopped itself (Ctrl-C, a time limit), it stops the checks too, and says what they printed so far.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

/** Runs `pnpm run <script>`, resolving with how it ended ("exit 0", "SIGTERM", "could not start") and its output. */
function run(script) {
  return new Promise((resolve) => {
    // The pnpm on PATH, as the script that runs this one runs `pnpm build`.
    const child = spawn('pnpm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => resolve({ ok: false, ended: `could not start: ${error.message}`, output: '' }));
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve({ ok: code === 0, ended: signal ?? `exit ${code}`, output: Buffer.concat(chunks).toString() });
    });
  });
}

const results = await Promise.all(scripts.map(async (script) => ({ script, ...(await run(script)) })));
const failed = results.filter((result) => !result.ok);
// Those that passed first, those that failed last, where a reader of the run's end finds them.
for (const { script, ended, output } of [...results.filter((result) => result.ok), ...failed]) {
  process.stdout.write(`\n> ${script} (${ended})\n${output}`);
}
if (failed.length > 0) {
  console.error(`run-at-once: failed: ${failed.map((result) => result.script).join(', ')}`);
  process.exitCode = 1;
}
