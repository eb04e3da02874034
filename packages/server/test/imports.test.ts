// Runs under vitest on Node: scripts/check-imports.mjs on small trees written here, then on the server's and the core's sources.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkImports, findImportSpecifiers, formatReport } from '../../../scripts/check-imports.mjs';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const script = join(repository, 'scripts/check-imports.mjs');
const trees = mkdtempSync(join(tmpdir(), 'plant-store-imports-'));
afterAll(() => rmSync(trees, { recursive: true, force: true }));

let count = 0;
/** Writes `files` (path relative to the tree: content) under a new folder and returns it. */
function tree(files: Record<string, string>): string {
  const root = join(trees, String(count++));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('findImportSpecifiers', () => {
  it('reads every form of import and re-export, and nothing in comments or generated code', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      'import {',
      '  c,',
      '  type C,',
      "} from './c.ts';",
      "import D, * as d from './d.ts';",
      "import './e.ts';",
      "export * from './f.ts';",
      "export * as g from './g.ts';",
      "export { h } from './h.ts';",
      "export type { I } from './i.ts';",
      "export type J = import('./j.ts').J;",
      "const k = await import('./k.ts');",
      "// import { no } from './comment.ts';",
      "/* export * from './block.ts'; */",
      "const generated = `import { no } from './template.ts';`;",
      "const pattern = /import('.\\/regex.ts')/;",
      'export { local };',
    ].join('\n');
    expect(findImportSpecifiers(text)).toEqual(['./a.ts', './b.ts', './c.ts', './d.ts', './e.ts', './f.ts', './g.ts', './h.ts', './i.ts', './j.ts', './k.ts']);
  });
});

/** checkImports on a tree written from `files`, as {@link tree} writes it. */
const checkTree = (files: Record<string, string>) => checkImports(tree(files));

describe('checkImports on small trees', () => {
  it('finds a cycle that runs through a type-only import', () => {
    const result = checkTree({
      'plant.ts': "import type { Route } from './route.ts';\nexport interface Plant { route: Route }\n",
      'route.ts': "import {\n  isPlant,\n} from './check.ts';\nexport type Route = string;\n",
      'check.ts': "import type { Plant } from './plant.ts';\nexport const isPlant = (value: unknown): value is Plant => value !== null;\n",
      'other.ts': "import { isPlant } from './check.ts';\nexport const other = isPlant;\n",
    });
    expect(result.cycles).toEqual([['check.ts', 'plant.ts', 'route.ts']]);
    expect(result.violations).toEqual([]);
    expect(formatReport([result])).toContain('cycle: check.ts → plant.ts → route.ts → check.ts');
  });

  it('finds a cycle through `export * from`, each cycle once, and leaves out tests and dist/', () => {
    const result = checkTree({
      'index.ts': "export * from './a.ts';\nexport * from './b.ts';\n",
      'a.ts': "import { b } from './index.ts';\nexport const a = b;\n",
      'b.ts': 'export const b = 1;\n',
      'a.test.ts': "import { a } from './a.ts';\nimport './a.test.ts';\n",
      'dist/index.ts': "export * from './index.ts';\n",
    });
    expect(result.files).toBe(3);
    expect(result.cycles).toEqual([['a.ts', 'index.ts']]);
    expect(result.rooms).toBe(false);
  });

  it('reports a domain/ file that imports from exchange/', () => {
    const result = checkTree({
      'domain/plant.ts': "import type { Request } from '../exchange/request.ts';\nexport type Plant = Request;\n",
      'domain/name.ts': "import type { Plant } from './plant.ts';\nexport type Name = Plant;\n",
      'exchange/request.ts': 'export type Request = string;\n',
      'exchange/answer.ts': "import type { Name } from '../domain/name.ts';\nexport type Answer = Name;\n",
    });
    expect(result.rooms).toBe(true);
    expect(result.cycles).toEqual([]);
    expect(result.violations).toEqual([
      { file: 'domain/plant.ts', target: 'exchange/request.ts', specifier: '../exchange/request.ts', rule: 'a domain/ file imports only from domain/' },
    ]);
  });

  it('reports a feature that imports from another feature, or from the root', () => {
    const result = checkTree({
      'domain/plant.ts': 'export type Plant = string;\n',
      'exchange/request.ts': "import type { Plant } from '../domain/plant.ts';\nexport type Request = Plant;\n",
      'features/create/create.ts': "import { list } from '../list/list.ts';\nexport const create = list;\n",
      'features/list/list.ts':
        "import type { Request } from '../../exchange/request.ts';\nimport { limit } from '../../limit.ts';\nexport const list = (r: Request) => r.slice(limit);\n",
      'limit.ts': 'export const limit = 1;\n',
    });
    expect(result.violations.map(({ file, target }) => `${file} → ${target}`)).toEqual([
      'features/create/create.ts → features/list/list.ts',
      'features/list/list.ts → limit.ts',
    ]);
    expect(result.violations[0]?.rule).toBe('a feature imports nothing of another feature (features/create/ imports from features/list/)');
  });

  it('passes a clean tree, with its depth and its files per room', () => {
    const result = checkTree({
      'domain/plant.ts': 'export type Plant = string;\n',
      'domain/parse.ts': "import type { Plant } from './plant.ts';\nexport const parse = (text: string): Plant => text;\n",
      'exchange/request.ts': "import { parse } from '../domain/parse.ts';\nexport const read = parse;\n",
      'features/create/create.ts': "import { read } from '../../exchange/request.ts';\nimport { same } from './same.ts';\nexport const create = same(read);\n",
      'features/create/same.ts': 'export const same = <T>(value: T): T => value;\n',
      'index.ts': "// Anything may be imported here.\nexport * from './features/create/create.ts';\nexport type { Plant } from './domain/plant.ts';\n",
    });
    expect(result.cycles).toEqual([]);
    expect(result.violations).toEqual([]);
    expect(result.depth).toBe(4);
    expect(result.chain).toEqual(['index.ts', 'features/create/create.ts', 'exchange/request.ts', 'domain/parse.ts', 'domain/plant.ts']);
    expect(result.filesPerRoom).toEqual({ '(root)': 1, domain: 2, exchange: 1, 'features/create': 2 });
  });

  it('exits 1 with the report on a cycle or a broken rule, 0 on a clean tree', () => {
    const clean = tree({ 'a.ts': "import { b } from './b.ts';\nexport const a = b;\n", 'b.ts': 'export const b = 1;\n' });
    const cyclic = tree({ 'a.ts': "import { b } from './b.ts';\nexport const a = 1;\n", 'b.ts': "import { a } from './a.ts';\nexport const b = a;\n" });
    const passed = spawnSync(process.execPath, [script, clean], { encoding: 'utf8' });
    expect(passed.status, passed.stderr).toBe(0);
    expect(passed.stdout).toContain('ok');
    const failed = spawnSync(process.execPath, [script, clean, cyclic], { encoding: 'utf8' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('cycle: a.ts → b.ts → a.ts');
  });
});

describe("the packages' sources", () => {
  it('the server has no import cycle', () => {
    const result = checkImports(join(repository, 'packages/server/src'));
    expect(result.files).toBeGreaterThan(0);
    expect(result.cycles, formatReport([result])).toEqual([]);
  });

  it('the core has no import cycle and keeps to its rooms', () => {
    const result = checkImports(join(repository, 'packages/core/src'));
    const report = formatReport([result]);
    expect(result.files).toBeGreaterThan(0);
    expect(result.cycles, report).toEqual([]);
    expect(result.violations, report).toEqual([]);
  });
});
