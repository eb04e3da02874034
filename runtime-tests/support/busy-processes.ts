// Runs on Node on Linux, imported by the latency tests: which processes used the CPU over a span, read from /proc (no
// load of its own), so that a latency bound that fails can be told apart from another process taking the cores.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time so far of every process, in clock ticks, with its command name, by pid. */
type CpuTimes = Map<number, { readonly name: string; readonly ticks: number }>;

/** The CPU time of every process now. */
export function cpuTimes(): CpuTimes {
  const times: CpuTimes = new Map();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The name is in parentheses and may hold spaces; the fields after it are counted from there (proc(5)).
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      // Fields 14 and 15 of the line (utime, stime) are the 12th and 13th after the name.
      times.set(pid, { name: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // Gone meanwhile.
    }
  }
  return times;
}

/** The `count` processes that used the most CPU since `before`, in ms (100 ticks a second, Linux's USER_HZ). */
export function busiestSince(before: CpuTimes, count = 6): { pid: number; name: string; cpuMs: number }[] {
  const busiest: { pid: number; name: string; cpuMs: number }[] = [];
  for (const [pid, { name, ticks }] of cpuTimes()) {
    const used = ticks - (before.get(pid)?.ticks ?? 0);
    if (used > 0) busiest.push({ pid, name, cpuMs: used * 10 });
  }
  return busiest
    .sort((a, b) => b.cpuMs - a.cpuMs)
    .slice(0, count)
    .map((each) => ({ ...each, name: commandOf(each.pid) ?? each.name }));
}

/** A process's program and first argument, by their last path parts (`node offered-load.ts`), when it is still there. */
function commandOf(pid: number): string | undefined {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return args.length === 0
      ? undefined
      : args
          .slice(0, 3)
          .map((arg) => arg.slice(arg.lastIndexOf('/') + 1).slice(0, 40))
          .join(' ');
  } catch {
    return undefined;
  }
}

/** Each core's time so far that the host gave to others (steal) and that went to interrupts (irq, softirq), in clock ticks, from /proc/stat. */
export function coreTimes(): Map<string, { readonly steal: number; readonly interrupts: number }> {
  const times = new Map<string, { steal: number; interrupts: number }>();
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    // `cpuN user nice system idle iowait irq softirq steal …` (proc(5)); the line `cpu` sums them all.
    if (!/^cpu\d/.test(line)) continue;
    const fields = line.split(/\s+/);
    times.set(fields[0]!, { steal: Number(fields[8]), interrupts: Number(fields[6]) + Number(fields[7]) });
  }
  return times;
}

/**
 * Per core, the ms since `before` that the host took from this machine (steal: a virtual machine's core running
 * another guest, slices too short for a core witness to see included) and that interrupts took.
 */
export function coreTimesSince(before: ReturnType<typeof coreTimes>): Record<string, { stealMs: number; interruptMs: number }> {
  const since: Record<string, { stealMs: number; interruptMs: number }> = {};
  for (const [core, { steal, interrupts }] of coreTimes()) {
    const then = before.get(core);
    since[core] = { stealMs: (steal - (then?.steal ?? 0)) * 10, interruptMs: (interrupts - (then?.interrupts ?? 0)) * 10 };
  }
  return since;
}
