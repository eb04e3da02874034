// Runs in every standalone server (Node, Bun, Deno, workerd's front and its Worker): plain strings and a timer.
import { routePath } from '@plant-store/core';

/**
 * One access-log line: method, path as the request is routed (no query, which
 * may hold secrets, and no scheme or host of an absolute-form target, which may
 * hold a password: the same on every runtime), status, milliseconds.
 */
export function accessLogLine(method: string, url: string, status: number, milliseconds: number): string {
  return `${method} ${routePath(url)} ${status} ${milliseconds.toFixed(1)}ms`;
}

/** Where a standalone server's access-log lines go; see {@link batchLines}. */
export interface LineSink {
  /** Queues one line; it is written within the current turn of the event loop. */
  (line: string): void;
  /** Writes what is queued now, e.g. before the process exits. */
  flush(): void;
}

/**
 * Gathers lines and hands them to `write` once per turn of the event loop,
 * joined with newlines: a write per request costs a busy server a tenth of
 * its throughput, on every runtime.
 */
export function batchLines(write: (text: string) => void): LineSink {
  const pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    write(pending.join('\n'));
    pending.length = 0;
  };
  const sink = (line: string) => {
    pending.push(line);
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, 0);
    }
  };
  return Object.assign(sink, { flush });
}
