// Runs on Node, by hand: instructions per create of in-process contenders (bench/in-process.mjs's), counted
// by valgrind's cachegrind (`apt-get install valgrind`), with each runtime's engine made to repeat itself: V8
// single-threaded and in its predictable mode (Node), JavaScriptCore compiling and collecting on the one thread
// it runs on (Bun). On Node the same run then counts the same to a few thousandths of a percent; on Bun three
// identical runs gave 31,876 to 32,479 instructions per create (2 %), where timing here spreads 10 % and more.
// (Deno, with V8's same flags, spreads 1 % in a whole run's count, 2,000 a create: left out.) Each contender
// runs twice, 20,000 creates of warm-up then 10,000 or 40,000 measured: the difference over 30,000 is its
// count per create, start-up and warm-up left out. A second view beside the in-process table, not a
// yardstick: it overweights allocation on Node (an 11-character slice counts about 1,000 instructions, where it
// takes 12 to 20 ns) and underweights it on Bun (the checks by hand, which read `bytes()` and decode strictly
// where the baseline reads `text()`, count 325 instructions more a create and take 350 to 400 ns more), and
// caches and branches count for nothing.
//
//   node bench/instructions.mjs [--node <binary>] node-baseline node-checks node-plant-store
//   node bench/instructions.mjs --bun <binary> fetch-baseline fetch-checks fetch-plant-store
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const args = process.argv.slice(2);
/** The runtime given with its flag (`--node`, `--bun`), taken out of the contenders' names. @param {string} flag */
const given = (flag) => {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const binary = args.splice(at, 2)[1];
  if (binary === undefined || binary.startsWith('--')) throw new Error(`instructions.mjs: ${flag} takes the runtime's binary`);
  return binary;
};
const bun = given('--bun');
const givenNode = given('--node');
if (bun !== undefined && givenNode !== undefined) throw new Error('instructions.mjs: --node or --bun, not both');
const node = givenNode ?? process.execPath;
/**
 * How the runtime runs the script, and the environment that makes its engine repeat itself.
 * @type {{ command: string[], env: Record<string, string> }}
 */
const runtime =
  bun === undefined
    ? { command: [node, '--single-threaded', '--predictable'], env: {} }
    : // JavaScriptCore's options, as Bun reads them from the environment: no compiler or collector threads.
      { command: [bun], env: { BUN_JSC_useConcurrentJIT: '0', BUN_JSC_useConcurrentGC: '0', BUN_JSC_numberOfGCMarkers: '1' } };
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
  const { stderr } = await run('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', ...runtime.command, script, contender], {
    env: { ...process.env, ...runtime.env, BENCH_IN_PROCESS_WARMUP: String(WARMUP), BENCH_IN_PROCESS_BATCH: String(measured), BENCH_IN_PROCESS_BATCHES: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
  if (refs === null) throw new Error(`instructions.mjs: no count from valgrind for ${contender}:\n${stderr}`);
  return Number(/** @type {string} */ (refs[1]).replaceAll(',', ''));
}

for (const contender of args) {
  // The two runs of a contender side by side: each is single-threaded under valgrind.
  const [fewer, more] = await Promise.all([count(contender, FEWER), count(contender, MORE)]);
  console.log(JSON.stringify({ contender, instructionsPerCreate: Math.round((more - fewer) / (MORE - FEWER)) }));
}
