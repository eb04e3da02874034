// Runs on Node on Linux, imported by the latency tests: what the machine's disks did over a span,
// read from /proc/diskstats (no load of its own), so that a latency bound that fails can be told
// apart from a disk that was slow to make writes durable at the time.
import { readFileSync, readdirSync } from 'node:fs';

/** Totals over every disk the kernel lists as a block device, save loop, RAM, device-mapper and RAID ones (which would count their disks' writes twice), since boot, in ms and counts. */
export interface DiskActivity {
  /** Writes completed. */
  readonly writes: number;
  /** Time writes spent queued and in service, summed over writes. */
  readonly writeMs: number;
  /** Flushes (what an fsync asks of the disk) completed; 0 where the kernel does not count them. */
  readonly flushes: number;
  /** Time flushes spent, summed over flushes. */
  readonly flushMs: number;
}

/** The totals now; all zero where /proc/diskstats cannot be read. */
export function diskActivity(): DiskActivity {
  let text: string;
  let disks: Set<string>;
  try {
    text = readFileSync('/proc/diskstats', 'utf8');
    disks = new Set(readdirSync('/sys/block').filter((name) => !/^(loop|ram|zram|dm-|md)/.test(name)));
  } catch {
    return { writes: 0, writeMs: 0, flushes: 0, flushMs: 0 };
  }
  let writes = 0;
  let writeMs = 0;
  let flushes = 0;
  let flushMs = 0;
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (!disks.has(fields[2] ?? '')) continue;
    // Documentation/admin-guide/iostats.rst: after major, minor and name, field 5 is writes
    // completed, 8 the ms spent writing, 16 flushes completed and 17 the ms spent flushing.
    writes += Number(fields[7]);
    writeMs += Number(fields[10]);
    flushes += Number(fields[18] ?? 0);
    flushMs += Number(fields[19] ?? 0);
  }
  return { writes, writeMs, flushes, flushMs };
}

/** What the disks did between two readings, with the mean time of a write and of a flush. */
export function diskActivitySince(before: DiskActivity, after = diskActivity()) {
  const writes = after.writes - before.writes;
  const flushes = after.flushes - before.flushes;
  return {
    writes,
    meanWriteMs: writes === 0 ? 0 : (after.writeMs - before.writeMs) / writes,
    flushes,
    meanFlushMs: flushes === 0 ? 0 : (after.flushMs - before.flushMs) / flushes,
  };
}
