// The documentation is checked like code: every fenced block is a file that the
// tests run or type-check, every relative link resolves, the error table is the
// core's, and the commands the front page and the mounting page show really work.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorTable } from '@plant-store/core';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_LINES, runToExit, runtime, type Exited } from './runtimes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const temporary = mkdtempSync(join(tmpdir(), 'plant-store-docs-'));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

/** README.md, docs/**\/*.md and packages/*\/README.md, as repository-relative paths. */
function markdownFiles(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  for (const name of readdirSync(join(root, 'packages'))) {
    if (existsSync(join(root, 'packages', name, 'README.md'))) found.push(join('packages', name, 'README.md'));
  }
  return found;
}

interface Block {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly info: string;
  readonly content: string;
  /** The snippet comment just before the block, if any. */
  readonly snippet: string | undefined;
}

const SNIPPET = /^<!-- snippet: (\S+) -->$/;

/** The fenced blocks of a markdown file, and its text outside them. */
function parse(file: string): { blocks: Block[]; prose: string[] } {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  const prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (open === null) {
      prose.push(lines[i]!);
      continue;
    }
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j]!.trim().startsWith(fence[0]!.repeat(fence.length)) && lines[j]!.trim().replace(/[`~]/g, '') === ''))
      body.push(lines[j++]!);
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: the fenced block is never closed`);
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const comment = before >= 0 ? SNIPPET.exec(lines[before]!.trim()) : null;
    blocks.push({ file, line: i + 1, info: open[3]!.trim(), content: body.join('\n') + '\n', snippet: comment?.[1] });
    i = j;
  }
  return { blocks, prose };
}

const files = markdownFiles();
const parsed = new Map(files.map((file) => [file, parse(file)]));
const allBlocks = [...parsed.values()].flatMap(({ blocks }) => blocks);
// The front page opens with the two commands CI runs; they are the only block without a file.
const exempt = (block: Block) => block.file === 'README.md' && block === parsed.get('README.md')!.blocks[0];

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}
function anchors(file: string): Set<string> {
  return new Set(
    parsed
      .get(file)
      ?.prose.filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, ''))) ?? [],
  );
}

/** Runs a command; resolves with its exit code and output. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 10_000, cwd = root): Promise<Exited> {
  return runToExit(command, args, { cwd, env, killAfterMs: timeoutMs });
}

/** An environment without the variables a test must control. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['HOST', 'PORT', 'PLANT_TOKEN', 'PLANT_STORE_TOKENS', 'PLANT_STORE_ACCESS_LOG', 'PLANT_STORE_DATABASE_URL']) delete env[name];
  return { ...env, ...extra };
}

describe('documentation', () => {
  it('finds the front page, the docs and a README per package', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/contract.md', join('packages', 'core', 'README.md')]));
    for (const name of readdirSync(join(root, 'packages'))) {
      if (statSync(join(root, 'packages', name)).isDirectory()) expect(files, `packages/${name}/README.md`).toContain(join('packages', name, 'README.md'));
    }
  });

  it('opens the front page with the two commands, byte for byte', () => {
    const first = parsed.get('README.md')!.blocks[0]!;
    expect([first.info, first.content]).toEqual(['sh', 'npm start\nnpx --yes pnpm@10.34.9 install && npx --yes pnpm@10.34.9 test\n']);
  });

  it('has a snippet file, equal to the block, before every fenced block', () => {
    const problems: string[] = [];
    for (const block of allBlocks) {
      if (exempt(block)) continue;
      const where = `${block.file}:${block.line}`;
      if (block.snippet === undefined) {
        problems.push(`${where}: no <!-- snippet: path --> comment before the block`);
        continue;
      }
      const path = join(root, block.snippet);
      if (!existsSync(path)) problems.push(`${where}: ${block.snippet} does not exist`);
      else if (readFileSync(path, 'utf8') !== block.content) problems.push(`${where}: the block differs from ${block.snippet}`);
    }
    expect(problems).toEqual([]);
  });

  it('shows every snippet file somewhere', () => {
    const shown = new Set(allBlocks.map((block) => block.snippet));
    const unused = readdirSync(join(root, 'docs/snippets'))
      .filter((name) => !/^tsconfig(\.[a-z]+)*\.json$/.test(name))
      .filter((name) => !shown.has(`docs/snippets/${name}`));
    expect(unused).toEqual([]);
  });

  it("declares no runtime's globals of its own: the snippets and examples use the runtimes' real types", () => {
    // A narrow home-made `Bun` or `Deno` once hid that the handler did not fit the real ones.
    const sources = [
      ...readdirSync(join(root, 'docs/snippets')).map((name) => join('docs/snippets', name)),
      ...readdirSync(join(root, 'examples'), { recursive: true, encoding: 'utf8' })
        .filter((path) => !path.split('/').includes('node_modules'))
        .map((path) => join('examples', path)),
    ].filter((path) => /\.(ts|mts|mjs|js)$/.test(path));
    const declaring = sources.filter((path) => /declare\s+(const|var|let|namespace|global)\b/.test(readFileSync(join(root, path), 'utf8')));
    expect(sources).toContain('docs/snippets/fetch-bun.ts');
    expect(declaring).toEqual([]);
  });

  it("type-checks the Deno snippet and examples/deno with `deno check`, against Deno's own types", async () => {
    // A project as npm installs one, the packages' files copied under node_modules:
    // Deno maps a declaration file's `./chunk.js` to `./chunk.d.ts` only in
    // node_modules, and the workspace's links lead out of it.
    const project = join(temporary, 'deno-check');
    for (const name of ['core', 'adapter-fetch', 'store-memory']) {
      const installed = join(project, 'node_modules/@plant-store', name);
      mkdirSync(installed, { recursive: true });
      cpSync(join(root, 'packages', name, 'package.json'), join(installed, 'package.json'));
      cpSync(join(root, 'packages', name, 'dist'), join(installed, 'dist'), { recursive: true });
    }
    writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
    cpSync(join(root, 'docs/snippets/fetch-deno.ts'), join(project, 'snippet.ts'));
    cpSync(join(root, 'examples/deno/main.ts'), join(project, 'example.ts'));
    const { code, stdout, stderr } = await run(runtime('Deno').binary, ['check', 'snippet.ts', 'example.ts'], cleanEnv({ NO_COLOR: '1' }), 60_000, project);
    expect(code, stdout + stderr).toBe(0);
  });

  it('points at no document outside the repository: docs/contract.md is the contract', () => {
    // Spelled in parts, so that this file does not name them either.
    const outside = [['SPEC', 'md'].join('.'), ['..', 'shared'].join('/')];
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const name of outside) expect(text, file).not.toContain(name);
    }
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of files) {
      // Links in the text, not in code spans.
      const text = parsed
        .get(file)!
        .prose.join('\n')
        .replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? join(root, file) : resolve(dirname(join(root, file)), path);
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(relative(root, resolved)).has(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("keeps the contract's error table equal to the core's errorTable", () => {
    const contract = readFileSync(join(root, 'docs/contract.md'), 'utf8');
    const section = contract.slice(contract.indexOf('## Status codes and the Error body'));
    const rows = [...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/^\| (\d+) \| (\d+) \| (.+) \|$/gm)].map(([, code, status, when]) => ({
      code: Number(code),
      status: Number(status),
      when: when!.trim(),
    }));
    const expected = Object.values(errorTable).map(({ code, status, when }) => ({ code, status, when }));
    const byCode = (a: { code: number }, b: { code: number }) => a.code - b.code;
    expect(rows.sort(byCode)).toEqual(expected.sort(byCode));
  });

  it('documents the table the PostgreSQL store creates', () => {
    const source = readFileSync(join(root, 'packages/store-postgres/src/create-postgres-store.ts'), 'utf8');
    const created = /(CREATE TABLE IF NOT EXISTS \$\{name\} \([^`]*\))`/.exec(source)?.[1];
    expect(created, 'the CREATE TABLE of create-postgres-store.ts').toBeDefined();
    const normalise = (sql: string) => sql.replace(/--.*$/gm, '').replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').replace(/;\s*$/, '').trim();
    const documented = readFileSync(join(root, 'docs/snippets/plants.sql'), 'utf8');
    expect(normalise(documented)).toBe(normalise(created!.replace('${name}', 'plants')));
  });

  it("answers the front page's curl as its comment says, from the server `start` runs", async () => {
    const snippet = readFileSync(join(root, 'docs/snippets/try-it.sh'), 'utf8');
    const expected = /^# (.+)$/m.exec(snippet)?.[1];
    expect(expected).toBeDefined();
    const server = spawn(process.execPath, ['packages/server/scripts/start.mjs', 'node'], {
      cwd: root,
      env: cleanEnv({ PORT: '0', PLANT_STORE_TOKENS: 's3cret-token', PLANT_STORE_ACCESS_LOG: 'off' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((found, fail) => {
        let output = '';
        const timer = setTimeout(() => fail(new Error(`the server did not start:\n${output}`)), 10_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /plant-store listening on (http:\/\/\S+)/.exec(output);
          if (match !== null) {
            clearTimeout(timer);
            found(match[1]!);
          }
        };
        server.stdout.on('data', read);
        server.stderr.on('data', read);
        server.once('exit', (code) => fail(new Error(`the server exited with ${code}:\n${output}`)));
      });
      expect(snippet).toContain('http://127.0.0.1:8080/');
      const { code, stdout, stderr } = await run('sh', ['-c', snippet.replaceAll('http://127.0.0.1:8080', url)], process.env);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout.trim()).toBe(expected);
    } finally {
      server.kill('SIGTERM');
    }
  });

  // Run as pasted: by Node's own type stripping (on by default from 22.18), as
  // ES modules (the repository's "type": "module"), the packages as built.
  const servers = ['mount-node-http.ts', 'mount-express.ts', 'docs-page-node-http.ts', 'docs-page-express.ts', 'fetch-on-node.ts'];
  it.each(NODE_LINES.flatMap((node) => servers.map((snippet) => [node, snippet] as const)))(
    '%s runs %s as pasted and stops it at start, naming the unset variable, when PLANT_TOKEN is missing',
    async (node, snippet) => {
      const { code, stdout, stderr } = await run(runtime(node).binary, [join('docs/snippets', snippet)], cleanEnv({}));
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(stderr).toContain('staticTokens: token 0 is undefined; is the variable that should hold it set?');
      expect(stdout).not.toContain('listening');
    },
  );
});
