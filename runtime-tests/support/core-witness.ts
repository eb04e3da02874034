// Runs on Node: imported by the latency tests, and as a process of its own pinned to one core
// (`taskset -c N node core-witness.ts`), which ticks every millisecond until its stdin ends (or
// its bound passes) and then prints, as JSON, the spans in which it could not tick: spans in which
// that core ran nothing of ours (the host took it away, as a virtual machine's host does now and
// then), as opposed to spans in which a process of ours was busy on it, which the kernel preempts
// for a woken process within a few milliseconds.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/** A span in which a core could not run the witness, in ms since the epoch (`performance.timeOrigin + performance.now()`). */
export interface Stall {
  readonly from: number;
  readonly to: number;
}

// A tick later than this after the one before is a stall: the kernel's scheduler hands a woken
// process its core within its wake-up granularity (a few ms), even from a busy one.
const STALL_MS = 10;

/** Witnesses on `cores`, until {@link CoreWitnesses.stop} or `maxSeconds`, whichever comes first. */
export interface CoreWitnesses {
  /** Ends the witnesses; resolves with every stall any of them saw, in order. */
  stop(): Promise<Stall[]>;
}

/** Starts one witness process per core in `cores`, each pinned to its core with `taskset`, running `node` (this process's own binary unless given). */
export function witnessCores(cores: readonly number[], maxSeconds: number, node = process.execPath): CoreWitnesses {
  const script = fileURLToPath(import.meta.url);
  const children = cores.map((core) => {
    const child = spawn('taskset', ['-c', String(core), node, '--disable-warning=ExperimentalWarning', script, String(maxSeconds)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const done = new Promise<Stall[]>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) =>
        code === 0 ? resolve(JSON.parse(output) as Stall[]) : reject(new Error(`the witness on core ${core} exited with ${code}`)),
      );
    });
    return { child, done };
  });
  return {
    async stop() {
      for (const { child } of children) child.stdin.end();
      const stalls = (await Promise.all(children.map(({ done }) => done))).flat();
      return stalls.sort((a, b) => a.from - b.from);
    },
  };
}

/** How much of `[from, to]` (ms since the epoch) lies in `stalls`, overlapping stalls counted once. */
export function stalledWithin(from: number, to: number, stalls: readonly Stall[]): number {
  let stalled = 0;
  let reached = from;
  for (const stall of stalls) {
    const start = Math.max(stall.from, reached);
    const end = Math.min(stall.to, to);
    if (end > start) {
      stalled += end - start;
      reached = end;
    }
  }
  return stalled;
}

/** The witness itself: ticks until stdin ends or `maxSeconds` pass, then prints its stalls. */
function witness(maxSeconds: number): void {
  const stalls: Stall[] = [];
  const now = () => performance.timeOrigin + performance.now();
  let last = now();
  let finished = false;
  const ticker = setInterval(() => {
    const at = now();
    // The tick was due 1 ms after the last one: the rest of the gap the core was not ours.
    if (at - last > STALL_MS) stalls.push({ from: last + 1, to: at });
    last = at;
  }, 1);
  const finish = () => {
    if (finished) return;
    finished = true;
    clearInterval(ticker);
    clearTimeout(bound);
    process.stdin.destroy();
    process.stdout.write(JSON.stringify(stalls));
  };
  const bound = setTimeout(finish, maxSeconds * 1000);
  process.stdin.on('end', finish).resume();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) witness(Number(process.argv[2]));
