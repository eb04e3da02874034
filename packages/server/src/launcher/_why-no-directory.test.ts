// Runs under vitest on Node, on real files in a temporary directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { whyNoDirectory } from './_why-no-directory.ts';

const root = mkdtempSync(join(tmpdir(), 'plant-store-why-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What mkdir threw for `dir`. */
function mkdirError(dir: string): unknown {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    return error;
  }
  throw new Error(`made ${dir}`);
}

describe('whyNoDirectory', () => {
  it('names a file that holds the name of the directory, or of one above it', () => {
    const file = join(root, '.plant-store');
    writeFileSync(file, 'x');
    expect(whyNoDirectory(file, mkdirError(file))).toBe(`${file} is a file, not a directory`);
    expect(whyNoDirectory(join(file, 'd1'), mkdirError(join(file, 'd1')))).toBe(`${file} is a file, not a directory`);
  });

  it('gives any other cause as the runtime words it', () => {
    const cause = Object.assign(new Error("EACCES: permission denied, mkdir '/x'"), { code: 'EACCES' });
    expect(whyNoDirectory(join(root, 'absent', 'deeper'), cause)).toBe(
      `${join(root, 'absent', 'deeper')} cannot be created (EACCES: permission denied, mkdir '/x')`,
    );
  });
});
