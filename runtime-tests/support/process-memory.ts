// Runs in the test process (Node, Linux): what a server process and the processes it started hold, from /proc.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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

/** The resident memory of `pid` and the processes below it, in MiB; a process gone meanwhile counts 0. */
export function treeRssMiB(pid: number): number {
  let kib = 0;
  for (const each of processTree(pid)) {
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${each}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
  }
  return kib / 1024;
}

/** How many sockets `pid` holds open (its listening socket and its clients' connections among them). */
export function socketCount(pid: number): number {
  let sockets = 0;
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return 0;
  }
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++;
    } catch {
      // Closed meanwhile.
    }
  }
  return sockets;
}
