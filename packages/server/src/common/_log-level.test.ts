// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { LOG_LEVELS, writesLevel } from './_log-level.ts';

describe('writesLevel', () => {
  it('writes a line at its level and every more severe one', () => {
    const written = LOG_LEVELS.map((threshold) => LOG_LEVELS.filter((level) => writesLevel(threshold, level)));
    expect(written).toEqual([['error'], ['error', 'warn'], ['error', 'warn', 'info'], ['error', 'warn', 'info', 'debug']]);
  });
});
