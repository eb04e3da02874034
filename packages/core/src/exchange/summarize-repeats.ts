// Runs anywhere: plain data and one timer per kind of item (setTimeout, which every runtime has); repeats of a log line summarised.

/** Options of {@link summarizeRepeats}. */
export interface SummarizeRepeatsOptions<T> {
  /** Writes an item in full: the first of its kind in a window. */
  readonly write: (item: T) => void;
  /** Writes that `count` more items like `first` came in the last `seconds`. */
  readonly writeSummary: (first: T, count: number, seconds: number) => void;
  /** What makes two items alike: equal keys. Runs of digits are ignored (ids, ports, durations). */
  readonly keyOf: (item: T) => string;
  /** How long one window lasts. Default 10 s. */
  readonly windowMs?: number;
  /**
   * Most kinds counted at once. Default 100. Past it, items of new kinds
   * share one count, summarised under the first of them: a flood of distinct
   * items stays bounded too.
   */
  readonly maxKinds?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

interface Window<T> {
  readonly first: T;
  started: number;
  count: number;
  timer: unknown;
}

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

const OVERFLOW = '\0overflow';

/**
 * A log writer that writes the first item of each kind at once and counts the
 * ones like it that follow within `windowMs`, writing one summary line for
 * them when the window ends (`N more like it in the last X s`). A failing
 * disk or database under load then costs a line or two per kind every
 * window, instead of one (multi-line) entry per request, and the first
 * occurrence, the one that names the cause, is never held back.
 *
 * Windows end on a timer (unref'd, so that it never keeps a process alive)
 * and also on the next item after their end, for runtimes that run no timer
 * between requests (workerd).
 *
 * @example
 * const log = summarizeRepeats<Error>({
 *   keyOf: (error) => error.message,
 *   write: (error) => console.error(error),
 *   writeSummary: (first, count, seconds) => console.error(`${count} more like "${first.message}" in the last ${seconds} s`),
 * });
 */
export function summarizeRepeats<T>(options: SummarizeRepeatsOptions<T>): (item: T) => void {
  const { write, writeSummary, keyOf } = options;
  const windowMs = options.windowMs ?? 10_000;
  const maxKinds = options.maxKinds ?? 100;
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window<T>>();

  /** Ends `key`'s window: its count written, if any, and a new window opened only if there was one. */
  function end(key: string, window: Window<T>, at: number): void {
    clearTimeout(window.timer);
    if (window.count === 0) {
      windows.delete(key);
      return;
    }
    const count = window.count;
    const seconds = Math.max(1, Math.round((at - window.started) / 1_000));
    // Still flooding, perhaps: the next window counts from here, so a
    // lasting failure writes one summary per window.
    window.started = at;
    window.count = 0;
    window.timer = arm(key, window);
    safely(() => writeSummary(window.first, count, seconds));
  }

  function arm(key: string, window: Window<T>): unknown {
    const timer = setTimeout(() => {
      if (windows.get(key) === window) end(key, window, now());
    }, windowMs);
    unref(timer);
    return timer;
  }

  return (item) => {
    const at = now();
    let key = keyOf(item).replace(/\d+/g, '#');
    let window = windows.get(key);
    if (window !== undefined && at - window.started >= windowMs) {
      end(key, window, at);
      window = windows.get(key);
    }
    if (window === undefined && windows.size >= maxKinds) {
      key = OVERFLOW;
      window = windows.get(key);
    }
    if (window !== undefined) {
      window.count++;
      return;
    }
    const opened: Window<T> = { first: item, started: at, count: 0, timer: undefined };
    opened.timer = arm(key, opened);
    windows.set(key, opened);
    write(item);
  };
}

/** Lets the process exit with the timer pending: Node and Bun through the timer, Deno through `Deno.unrefTimer`. */
function unref(timer: unknown): void {
  if (typeof timer === 'number') (globalThis as { Deno?: { unrefTimer?(id: number): void } }).Deno?.unrefTimer?.(timer);
  else (timer as { unref?: () => void } | undefined)?.unref?.();
}

/** A writer that throws must not take the caller down with it: a log line is not worth a request. */
function safely(write: () => void): void {
  try {
    write();
  } catch {}
}
