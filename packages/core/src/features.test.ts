// Runs on Node (vitest): the feature registry against what the code and the prose around it say.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findImportSpecifiers, listSourceFiles } from '../../../scripts/check-imports.mjs';
import type { Feature } from './exchange/feature.ts';
import FEATURES from './features.ts';

const source = fileURLToPath(new URL('.', import.meta.url));

/**
 * Whether a feature's member of `PlantHandlerOptions` is its own option and nothing else, and its flag of
 * `DocumentedRoutes`, when it has one, its own too: the registry merges them, so a feature that declared another's
 * option, or a second one, would change the public options from a folder nobody reads for them.
 */
type DeclaresItsOwnOnly<F> =
  F extends Feature<infer Option, infer Options, infer Routes>
    ? [keyof Options, Option, keyof Routes] extends [Option, keyof Options, Option]
      ? true
      : false
    : false;
/** `true` when every feature of `List` declares its own option only; else `false`. */
type EachDeclaresItsOwnOnly<List extends readonly unknown[]> = false extends { [K in keyof List]: DeclaresItsOwnOnly<List[K]> }[number] ? false : true;

describe('the features', () => {
  it('each has an option of its own, and a folder of its own under features/', () => {
    const options = FEATURES.map((feature) => feature.option);
    expect(new Set(options).size).toBe(options.length);
    const folders = readdirSync(join(source, 'features'));
    const registry = readFileSync(join(source, 'features.ts'), 'utf8');
    for (const folder of folders) expect(registry, `features/${folder}/ is registered`).toContain(`./features/${folder}/`);
    expect(folders.length).toBe(FEATURES.length);
  });

  it('each declares its own option of PlantHandlerOptions and flag of DocumentedRoutes, and no other', () => {
    // Checked by the type checker (the test command's typecheck): the assignment fails to compile when one does not.
    const declared: EachDeclaresItsOwnOnly<typeof FEATURES> = true;
    expect(declared).toBe(true);
  });

  it('live in their folders: of the top-level files, only the registry imports from features/', () => {
    const topLevel = readdirSync(source).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'features.ts');
    expect(topLevel.length).toBeGreaterThan(0);
    for (const file of topLevel) {
      const imported = findImportSpecifiers(readFileSync(join(source, file), 'utf8'));
      expect(
        imported.filter((specifier) => specifier.startsWith('./features/')),
        file,
      ).toEqual([]);
    }
  });

  it("are each named where createPlantHandler's documentation says what it serves", () => {
    const prose = readFileSync(join(source, 'create-plant-handler.ts'), 'utf8');
    const end = prose.indexOf('export function createPlantHandler');
    const doc = prose.slice(prose.lastIndexOf('/**', end), end);
    for (const { option } of FEATURES) expect(doc, option).toContain(`\`${option}\``);
  });
});

describe("the core's sources", () => {
  it('each says it runs anywhere, and imports nothing of a runtime: only its own files and valibot', () => {
    const files = listSourceFiles(source);
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const text = readFileSync(join(source, file), 'utf8');
      expect(text.split('\n', 1)[0], file).toMatch(/^\/\/ Runs anywhere\b/);
      const imported = findImportSpecifiers(text);
      expect(
        imported.filter((specifier) => !specifier.startsWith('.') && specifier !== 'valibot' && specifier !== '@valibot/to-json-schema'),
        file,
      ).toEqual([]);
    }
  });
});
