// Runs on Node, by hand: instructions per create of in-process contenders (bench/in-process.mjs's), counted
// by valgrind's cachegrind (`apt-get install valgrind`), with V8 single-threaded and in its predictable mode,
// where the same run counts the same to a few thousandths of a percent (timing here spreads 10 % and more).
// Each contender runs twice, 20,000 creates of warm-up then 10,000 or 40,000 measured: the difference over
// 30,000 is its count per create, start-up and warm-up left out. A second view beside the in-process table,
// not a yardstick: it overweights allocation (an 11-character slice counts about 1,000 instructions, where it
// takes 12 to 20 ns), and caches and branches count for nothing. Node contenders only, on the Node given.
//
//   node bench/instructions.mjs [--node <binary>] node-baseline node-checks node-plant-store
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const args = process.argv.slice(2);
const at = args.indexOf('--node');
const node = at < 0 ? process.execPath : /** @type {string} */ (args.splice(at, 2)[1]);
const script = fileURLToPath(new URL('in-process.mjs', import.meta.url));
const WARMUP = 20_000;
const FEWER = 10_000;
const MORE = 40_000;

/**
 * The instructions valgrind counts for one run of `contender` with `measured` creates after the warm-up.
 * @param {string} contender
 * @param {number} measured
 */
async function count(contender, measured) {
  const { stderr } = await run(
    'valgrind',
    ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', node, '--single-threaded', '--predictable', script, contender],
    {
      env: { ...process.env, BENCH_IN_PROCESS_WARMUP: String(WARMUP), BENCH_IN_PROCESS_BATCH: String(measured), BENCH_IN_PROCESS_BATCHES: '1' },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
  if (refs === null) throw new Error(`instructions.mjs: no count from valgrind for ${contender}:\n${stderr}`);
  return Number(/** @type {string} */ (refs[1]).replaceAll(',', ''));
}

for (const contender of args) {
  // The two runs of a contender side by side: each is single-threaded under valgrind.
  const [fewer, more] = await Promise.all([count(contender, FEWER), count(contender, MORE)]);
  console.log(JSON.stringify({ contender, instructionsPerCreate: Math.round((more - fewer) / (MORE - FEWER)) }));
}
