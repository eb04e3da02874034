// Runs under vitest on Node: the settings the documents name against STANDALONE_VARIABLES, the one table the server reads them from.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STANDALONE_VARIABLES } from '../src/common/_standalone-variables.ts';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const names = STANDALONE_VARIABLES.map((variable) => variable.name);

/** The variables in the first column of the table under `## Settings` of docs/standalone.md. */
function settingsTableNames(markdown: string): string[] {
  const section = markdown.slice(markdown.indexOf('\n## Settings\n'));
  const rows = section.slice(0, section.indexOf('\n\n', section.indexOf('\n|'))).split('\n');
  return rows.flatMap((row) => /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1] ?? []);
}

describe('the documented settings', () => {
  it('docs/standalone.md tables every variable the server reads, once, and no other', () => {
    const documented = settingsTableNames(read('docs/standalone.md'));
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...names].sort());
  });

  it('every PLANT_STORE_ name in the documents and the READMEs is one the server reads', () => {
    // docs/standalone.md is left out: its table is checked above, and its text names misspelt
    // variables on purpose, to show the warning they get.
    const files = ['README.md', 'packages/server/README.md', 'docs/operations.md', 'docs/install.md', 'docs/scaling.md', 'docs/stores.md', 'docs/auth.md'];
    // The mark a supervisor sets on its workers is not a setting.
    const known = new Set([...names, 'PLANT_STORE_WORKER_OF']);
    for (const file of files) {
      const mentioned = new Set(read(file).match(/PLANT_STORE_[A-Z0-9_]*/g) ?? []);
      // A name that ends in "_" is a family of them (`PLANT_STORE_JWT_*`).
      const unknown = [...mentioned].filter((name) => !known.has(name) && !(name.endsWith('_') && names.some((each) => each.startsWith(name))));
      expect({ file, unknown }).toEqual({ file, unknown: [] });
    }
  });
});
