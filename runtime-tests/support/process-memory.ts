// Runs in the test process (Node, Linux): what a server process and the processes it started hold, from /proc.
import { readdirSync, readFileSync } from 'node:fs';

/** `pid` and every process below it (workerd under the launcher's front), read from /proc. */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${all[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${all[i]}/task/${task}/children`, 'utf8').split(' ')) if (child.trim() !== '') all.push(Number(child));
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return all;
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
