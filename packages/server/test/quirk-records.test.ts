// Runs under vitest on Node: the runtime quirk records (packages/server/src/<runtime>/QUIRKS.md) against the files they name and the canaries of runtime-tests/quirks.test.ts; the libraries' records (packages/<name>/QUIRKS.md) against the files they name.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const repository = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, repository), 'utf8');
const runtimes = readdirSync(new URL('packages/server/src/', repository), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`packages/server/src/${entry.name}/QUIRKS.md`, repository)))
  .map((entry) => entry.name);

/** Each record of a runtime's QUIRKS.md: its name and the text of its "Delete when fixed" item. */
function records(runtime: string): { name: string; deletion: string }[] {
  return recordsOf(read(`packages/server/src/${runtime}/QUIRKS.md`));
}

/** Each record of a QUIRKS.md's `text`: its name and the text of its "Delete when fixed" item. */
function recordsOf(text: string): { name: string; deletion: string }[] {
  return text
    .split('\n## ')
    .slice(1)
    .map((record) => {
      const name = record.slice(0, record.indexOf(':'));
      const deletion = /- Delete when fixed: ([\s\S]*?)(?=\n- |\n*$)/.exec(record)?.[1] ?? '';
      return { name, deletion };
    });
}

// Where a record's paths are read from: the repository, the server package, its sources, the runtime's folder, runtime-tests.
const bases = (runtime: string) => ['', 'packages/server/', 'packages/server/src/', `packages/server/src/${runtime}/`, 'runtime-tests/'];

/** The packages whose own QUIRKS.md records what they work around in a library they use. */
const libraries = readdirSync(new URL('packages/', repository), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`packages/${entry.name}/QUIRKS.md`, repository)))
  .map((entry) => entry.name);

/** The backticked file paths of a "Delete when fixed" item that exist under none of `bases`. */
function missingPaths(deletion: string, bases: readonly string[]): string[] {
  const paths = [...deletion.matchAll(/`([\w./-]+\.(?:ts|mjs|md|json))`/g)].map((match) => match[1]!);
  return paths.filter((path) => !bases.some((base) => existsSync(new URL(`${base}${path}`, repository))));
}

describe('the runtime quirk records', () => {
  it('are found, one file per runtime that has quirks', () => {
    expect([...runtimes].sort()).toEqual(['bun', 'deno', 'node', 'workerd']);
  });

  it('name only files that exist in what to delete once a quirk is gone', () => {
    for (const runtime of runtimes) {
      for (const { name, deletion } of records(runtime)) {
        expect({ runtime, name, missing: missingPaths(deletion, bases(runtime)) }).toEqual({ runtime, name, missing: [] });
      }
    }
  });

  it('each have a canary in runtime-tests/quirks.test.ts, and each canary a record', () => {
    const canaries = [...read('runtime-tests/quirks.test.ts').matchAll(/^ {2}'([a-z0-9-]+)': \{$/gm)].map((match) => match[1]!);
    // Node's records are of Node's own behaviour, checked where they are worked around, not by a bare-runtime canary.
    const recorded = runtimes.filter((runtime) => runtime !== 'node').flatMap((runtime) => records(runtime).map((record) => record.name));
    expect(canaries.length).toBeGreaterThan(0);
    expect([...canaries].sort()).toEqual([...recorded].sort());
  });
});

describe("the libraries' quirk records", () => {
  it('are found where packages keep them', () => {
    expect([...libraries].sort()).toEqual(['adapter-fetch', 'store-postgres']);
  });

  it('name only files that exist in what to delete once a quirk is gone, and each has a record', () => {
    for (const library of libraries) {
      const found = recordsOf(read(`packages/${library}/QUIRKS.md`));
      expect(found.length, library).toBeGreaterThan(0);
      for (const { name, deletion } of found) {
        expect(deletion, `${library}: ${name}`).not.toBe('');
        const missing = missingPaths(deletion, ['', `packages/${library}/`, 'runtime-tests/']);
        expect({ library, name, missing }).toEqual({ library, name, missing: [] });
      }
    }
  });
});
