// Runs in the test process (Node, Linux): whether workerd outlives the process that started it when that process is
// killed with SIGKILL (the workerd-outlives-front canary in quirks.test.ts, and the front's own test).
import { spawn } from 'node:child_process';
import { childPids, commandOf, isAlive } from './process-memory.ts';
import { until } from './until.ts';

/**
 * Starts `binary args` in `cwd`, in a process group of its own, waits until its standard output matches `ready`,
 * finds the workerd it started, kills that process alone with SIGKILL, and says whether its workerd still runs
 * `watchMs` later (a zombie, ended but not yet collected by init, does not run). The whole group, workerd with
 * it, is killed at the end, whatever happened.
 */
export async function workerdOutlivesKilledParent(
  binary: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string>; readonly ready: RegExp; readonly watchMs?: number },
): Promise<boolean> {
  const child = spawn(binary, args, {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', DO_NOT_TRACK: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await until(() => options.ready.test(output), 30_000, `${binary} ${args.join(' ')} ready:\n${output}`);
    let workerd: number | undefined;
    await until(() => (workerd = childPids(child.pid!).find((pid) => commandOf(pid) === 'workerd')) !== undefined, 10_000, 'its workerd');
    process.kill(child.pid!, 'SIGKILL');
    await exited;
    const watchMs = options.watchMs ?? 2_000;
    const started = performance.now();
    while (performance.now() - started < watchMs) {
      if (!isAlive(workerd!)) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return isAlive(workerd!);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Nothing of the group is left.
    }
  }
}
