// Runs on Node (vitest): each of the server's source files says where it runs, and says so truly of the runtimes whose own APIs it uses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blankCommentsTemplatesAndRegexes, listSourceFiles } from '../../../scripts/check-imports.mjs';

const source = fileURLToPath(new URL('../src/', import.meta.url));

/** The comment lines a file opens with (after a shebang), joined. */
function header(text: string): string {
  const lines = text.split('\n').filter((line, index) => !(index === 0 && line.startsWith('#!')));
  const opening: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('//')) break;
    opening.push(line.slice(2).trim());
  }
  return opening.join(' ');
}

describe("the server's sources", () => {
  it('each opens by saying where it runs, naming Bun where it uses Bun and Deno where it uses Deno', () => {
    // Declarations of other packages' APIs (miniflare.d.ts) run nowhere.
    const files = listSourceFiles(source).filter((file) => !file.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      const text = readFileSync(join(source, file), 'utf8');
      const says = header(text);
      expect(says, file).toMatch(/\bruns\b/i);
      // Outside comments: a use of the runtime's own global or modules.
      const code = blankCommentsTemplatesAndRegexes(text);
      if (/\bBun\.\w|'bun:/.test(code)) expect(says, `${file} uses Bun`).toMatch(/\bBun\b/);
      if (/\bDeno\.\w/.test(code)) expect(says, `${file} uses Deno`).toMatch(/\bDeno\b/);
    }
  });
});
