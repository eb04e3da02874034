// Runs under vitest on Node.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logWarningsAsJson } from './_log-warnings-as-json.ts';

describe('logWarningsAsJson', () => {
  const listeners = process.listeners('warning');
  afterEach(() => {
    // The test runner's own listeners come back.
    process.removeAllListeners('warning');
    for (const listener of listeners) process.on('warning', listener);
    vi.restoreAllMocks();
  });

  it("writes a runtime warning as one JSON line at level warn, in place of Node's own lines", async () => {
    const written = vi.spyOn(console, 'error').mockImplementation(() => {});
    logWarningsAsJson();
    expect(process.listenerCount('warning')).toBe(1);
    process.emitWarning('SQLite is an experimental feature', 'ExperimentalWarning');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(written.mock.calls.map(([line]) => JSON.parse(line as string))).toEqual([
      { time: expect.any(String), level: 'warn', msg: 'ExperimentalWarning: SQLite is an experimental feature' },
    ]);
  });
});
