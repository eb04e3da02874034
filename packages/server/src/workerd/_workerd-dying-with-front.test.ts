// Runs under vitest on Node (Linux, where setpriv is).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultWorkerdBinary, setprivPath, workerdDyingWithFront } from './_workerd-dying-with-front.ts';

const setpriv = process.platform === 'linux' && setprivPath() !== undefined;
const given = process.env['TMPDIR'];
afterEach(() => {
  if (given === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = given;
});

describe.runIf(setpriv)('workerdDyingWithFront', () => {
  it('is a script that runs workerd, in a directory of its own that remove() takes away', () => {
    const dying = workerdDyingWithFront(defaultWorkerdBinary())!;
    try {
      const ran = spawnSync(dying.path, ['--version'], { encoding: 'utf8' });
      expect([ran.status, ran.stdout]).toEqual([0, expect.stringMatching(/^workerd \d{4}-\d{2}-\d{2}/)]);
    } finally {
      dying.remove();
    }
    expect(existsSync(dying.path)).toBe(false);
  });

  it('is none, and leaves nothing, where the script cannot run: a missing temporary directory, or a binary that does not start', () => {
    const parent = mkdtempSync(join(tmpdir(), 'plant-store-dying-test-'));
    try {
      process.env['TMPDIR'] = join(parent, 'missing');
      expect(workerdDyingWithFront(defaultWorkerdBinary())).toBeUndefined();
      process.env['TMPDIR'] = parent;
      expect(workerdDyingWithFront(join(parent, 'no-such-workerd'))).toBeUndefined();
      expect(spawnSync('ls', ['-A', parent], { encoding: 'utf8' }).stdout).toBe('');
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
