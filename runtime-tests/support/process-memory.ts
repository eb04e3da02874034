// Runs in the test process (Node, Linux): what a server process and the processes it started hold, from /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { until } from './until.ts';

/** `pid` and every process below it (workerd under the launcher's front), read from /proc. */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childPids(all[i]!));
  return all;
}

/** The processes `pid` started itself, from /proc; none once it is gone. */
export function childPids(pid: number): number[] {
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) if (child.trim() !== '') children.push(Number(child));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** The command name of `pid` (`/proc/<pid>/comm`, at most 15 characters); empty once it is gone. */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The resident memory of `pid` alone, in MiB; 0 once it is gone. */
export function processRssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    // Gone meanwhile.
    return 0;
  }
}

/** The resident memory of `pid` and the processes below it, in MiB; a process gone meanwhile counts 0. */
export function treeRssMiB(pid: number): number {
  return processTree(pid).reduce((sum, each) => sum + processRssMiB(each), 0);
}

/**
 * The least resident memory of `pid` and the processes below it seen while waiting, at most 3 s, for it to come back
 * within 10 MiB of `before` (a collection may be due); `onLower` is told each time a lower figure is seen.
 */
export async function settledRssMiB(pid: number, before: number, onLower?: () => void): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  await until(
    () => {
      const now = treeRssMiB(pid);
      if (now < least) {
        least = now;
        onLower?.();
      }
      return least <= before + 10;
    },
    3_000,
    'settled',
  ).catch(() => {});
  return least;
}

/** CPU time `pid` and the processes below it have used so far, in clock ticks; a process gone meanwhile counts 0. */
export function treeCpuTicks(pid: number): number {
  let ticks = 0;
  for (const each of processTree(pid)) {
    try {
      // /proc/<pid>/stat: "pid (comm) state …"; comm may hold spaces, so read after its last ')': utime and stime are
      // the 12th and 13th fields from there.
      const stat = readFileSync(`/proc/${each}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks;
}

/**
 * The process of `pids` started last: by its start time in /proc, then, for two started within one clock tick, by
 * pid in the order pids are handed out, which wraps past /proc/sys/kernel/pid_max (32,768 here, passed several times
 * in a test run): the larger pid is not always the newer process.
 */
export function newestProcess(pids: readonly number[]): number {
  if (pids.length === 0) throw new Error('newestProcess: no processes');
  const max = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
  const started = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // starttime is the 22nd field, the 20th after "(comm) ".
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  };
  // Whether b was handed out after a: pids count up from a, around pid_max, for less than half the range.
  const after = (a: number, b: number) => (b - a + max) % max < max / 2;
  return pids.reduce((newest, pid) => {
    const [was, is] = [started(newest), started(pid)];
    return is > was || (is === was && after(newest, pid)) ? pid : newest;
  });
}

/** Whether process `pid` is still there (signal 0 checks without sending anything). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether process `pid` is there and not a zombie: one ended, whose exit nobody has collected yet, is not alive. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
