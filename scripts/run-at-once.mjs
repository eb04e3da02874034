#!/usr/bin/env node
// Runs on Node, in the root "test:all" script: runs the package scripts it is named at once (the checks that need
// only the build: types, formatting, the packed packages), each one's output printed whole as it ends so that their
// lines do not interleave, and exits 1 if any of them failed. On the 2-core machine the three take about as long
// together as the longest alone, which keeps the test command inside its time budget.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('run-at-once: name the package scripts to run, e.g. `node scripts/run-at-once.mjs typecheck format:check`');
  process.exit(2);
}

/** Runs `pnpm run <script>`, resolving with its exit code (1 if it could not start) and its output. */
function run(script) {
  return new Promise((resolve) => {
    // The pnpm on PATH, as the script that runs this one runs `pnpm build`.
    const child = spawn('pnpm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => resolve({ code: 1, output: `${script} could not start: ${error.message}\n` }));
    child.once('close', (code, signal) => resolve({ code: code ?? (signal === null ? 1 : 128), output: Buffer.concat(chunks).toString() }));
  });
}

const failed = [];
await Promise.all(
  scripts.map(async (script) => {
    const { code, output } = await run(script);
    process.stdout.write(`\n> ${script} (exit ${code})\n${output}`);
    if (code !== 0) failed.push(script);
  }),
);
if (failed.length > 0) {
  console.error(`run-at-once: failed: ${failed.join(', ')}`);
  process.exit(1);
}
