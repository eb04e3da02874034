// Runs on Node at the repository root, after `changeset version` (the root
// `version-packages` script runs both): changesets writes each new version into
// package.json only, and JSR reads it from jsr.json, so this copies it across.
// Every other jsr.json field is left as it is.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packages = fileURLToPath(new URL('../packages', import.meta.url));

for (const name of readdirSync(packages)) {
  const jsrPath = join(packages, name, 'jsr.json');
  if (!existsSync(jsrPath)) continue;
  const { version } = JSON.parse(readFileSync(join(packages, name, 'package.json'), 'utf8'));
  const text = readFileSync(jsrPath, 'utf8');
  // A textual replacement of the one field, so that the file keeps its layout.
  const updated = text.replace(/^(\s*"version":\s*)"[^"]*"/m, `$1${JSON.stringify(version)}`);
  if (updated !== text) {
    writeFileSync(jsrPath, updated);
    console.log(`packages/${name}/jsr.json: ${version}`);
  }
}
