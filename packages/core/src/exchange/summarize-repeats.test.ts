// Runs under vitest on Node (the "packages" project), with vitest's fake timers and clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { summarizeRepeats } from './summarize-repeats.ts';

describe('summarizeRepeats', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  function recorder(options: { windowMs?: number; maxKinds?: number } = {}) {
    const lines: string[] = [];
    const log = summarizeRepeats<string>({
      ...options,
      keyOf: (item) => item,
      write: (item) => lines.push(item),
      writeSummary: (first, count, seconds) => lines.push(`${count} more like ${first} in ${seconds} s`),
    });
    return { lines, log };
  }

  it('writes the first of a kind at once, counts the rest, and writes one summary when the window ends', () => {
    const { lines, log } = recorder();
    for (let i = 0; i < 1_000; i++) log('disk full');
    expect(lines).toEqual(['disk full']);
    vi.advanceTimersByTime(10_000);
    expect(lines).toEqual(['disk full', '999 more like disk full in 10 s']);
  });

  it('a lasting flood writes one summary per window; a quiet window writes nothing, and the next item is written again', () => {
    const { lines, log } = recorder({ windowMs: 1_000 });
    for (let second = 0; second < 3; second++) {
      for (let i = 0; i < 10; i++) log('locked');
      vi.advanceTimersByTime(1_000);
    }
    expect(lines).toEqual(['locked', '9 more like locked in 1 s', '10 more like locked in 1 s', '10 more like locked in 1 s']);
    vi.advanceTimersByTime(5_000);
    log('locked');
    expect(lines.at(-1)).toBe('locked');
    expect(lines).toHaveLength(5);
  });

  it('kinds are counted apart, and digits do not make a new kind', () => {
    const { lines, log } = recorder();
    log('plant 1 failed');
    log('plant 22 failed');
    log('I/O error');
    log('plant 333 failed');
    vi.advanceTimersByTime(10_000);
    expect(lines).toEqual(['plant 1 failed', 'I/O error', '2 more like plant 1 failed in 10 s']);
  });

  it('past maxKinds, new kinds share one count, so distinct items cannot flood either', () => {
    const { lines, log } = recorder({ maxKinds: 2 });
    for (const word of ['a', 'b', 'c', 'd', 'e', 'f']) log(word);
    expect(lines).toEqual(['a', 'b', 'c']);
    vi.advanceTimersByTime(10_000);
    expect(lines).toEqual(['a', 'b', 'c', '3 more like c in 10 s']);
  });

  it('a window that ended while no timer ran (workerd between requests) is summarised by the next item', () => {
    const lines: string[] = [];
    let now = 0;
    const log = summarizeRepeats<string>({
      now: () => now,
      keyOf: (item) => item,
      write: (item) => lines.push(item),
      writeSummary: (first, count, seconds) => lines.push(`${count} more like ${first} in ${seconds} s`),
    });
    log('x');
    log('x');
    now = 12_000;
    log('x');
    expect(lines).toEqual(['x', '1 more like x in 12 s']);
  });
});
