// Runs on Node (22 and later), by hand at the repository root or from packages/server/test/imports.test.ts: it exists so that the packages' sources keep no import cycle and keep to their rooms.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/**
 * @typedef {object} RoomViolation A relative import that leaves the rooms its file may use.
 * @property {string} file The importing file, relative to its source root.
 * @property {string} target The imported file, relative to the same root.
 * @property {string} specifier The import as written.
 * @property {string} rule Which rule it breaks, in words.
 */

/**
 * @typedef {object} ImportCheck What {@link checkImports} finds in one source root.
 * @property {string} root The source root as it was given.
 * @property {number} files How many source files it holds (tests left out).
 * @property {string[][]} cycles Every elementary import cycle, each once, as its files from the first in sort order.
 * @property {boolean} cyclesTruncated Whether there were more cycles than {@link MAX_CYCLES} and the rest were left out.
 * @property {boolean} rooms Whether the root has rooms (`domain/`, `exchange/` or `features/`), so their rules were checked.
 * @property {RoomViolation[]} violations The imports that break a room's rules; empty when there are no rooms.
 * @property {number} depth The number of imports in the longest chain, a cycle counted as one file.
 * @property {string[]} chain One chain that long, from the importing file down.
 * @property {Record<string, number>} filesPerRoom Files per room (`domain`, `exchange`, `features/<name>`, any other folder, `(root)`).
 * @property {{ file: string, specifier: string }[]} unresolved Relative imports of TypeScript that name no file.
 */

/** How many cycles one root reports at most: past that, the tree needs untangling more than a longer list. */
export const MAX_CYCLES = 200;

const ROOM_FOLDERS = ['domain', 'exchange', 'features'];
const SKIPPED_FOLDERS = new Set(['dist', 'node_modules']);

/**
 * Every `.ts` file under `root` except tests (`*.test.ts`) and what lies in
 * `dist/` or `node_modules/`, as paths relative to `root` with `/` between
 * folders, sorted.
 *
 * @param {string} root
 * @returns {string[]}
 */
export function listSourceFiles(root) {
  /** @type {string[]} */
  const found = [];
  /** @param {string} folder */
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path);
      } else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        found.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return found.sort();
}

// After one of these (or at the start), a `/` opens a regular expression rather than dividing.
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^']);
const KEYWORDS_BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

/**
 * `text` with its comments, the text of its template literals and its
 * regular expressions blanked out (newlines kept, so positions and line
 * starts stay), so that an import in a comment, in generated code or in a
 * pattern is not read as one of the file's own. Strings are stepped over
 * whole, since a `//` or a quote inside them opens nothing.
 *
 * @param {string} text TypeScript source.
 * @returns {string}
 */
export function blankCommentsTemplatesAndRegexes(text) {
  const chars = [...text];
  const n = chars.length;
  /** @type {number[]} The brace depths at which the open `${` of template literals close. */
  const interpolations = [];
  let depth = 0;
  let last = '';
  let word = '';
  let i = 0;
  /** @param {number} from @param {number} to */
  const blank = (from, to) => {
    for (let j = from; j < to; j++) if (chars[j] !== '\n') chars[j] = ' ';
  };
  // Blanks a template literal's text from `j` to its end or to its next `${`, and steps past it.
  /** @param {number} j @returns {number} */
  const template = (j) => {
    const start = j;
    while (j < n) {
      const c = chars[j];
      if (c === '\\') j += 2;
      else if (c === '`') {
        blank(start, j);
        return j + 1;
      } else if (c === '$' && chars[j + 1] === '{') {
        blank(start, j);
        interpolations.push(depth);
        depth++;
        return j + 2;
      } else j++;
    }
    blank(start, n);
    return j;
  };
  while (i < n) {
    const c = chars[i] ?? '';
    const next = chars[i + 1];
    if (c === '/' && next === '/') {
      let end = i;
      while (end < n && chars[end] !== '\n') end++;
      blank(i, end);
      i = end;
    } else if (c === '/' && next === '*') {
      let end = i + 2;
      while (end < n && !(chars[end] === '*' && chars[end + 1] === '/')) end++;
      end = Math.min(end + 2, n);
      blank(i, end);
      i = end;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && chars[j] !== c && chars[j] !== '\n') j += chars[j] === '\\' ? 2 : 1;
      i = j + 1;
      last = c;
      word = '';
    } else if (c === '`') {
      i = template(i + 1);
      last = '`';
      word = '';
    } else if (c === '}' && interpolations.length > 0 && interpolations[interpolations.length - 1] === depth - 1) {
      interpolations.pop();
      depth--;
      i = template(i + 1);
      last = '`';
      word = '';
    } else if (c === '/' && (last === '' || BEFORE_REGEX.has(last) || KEYWORDS_BEFORE_REGEX.has(word))) {
      let j = i + 1;
      let inClass = false;
      while (j < n && chars[j] !== '\n') {
        const r = chars[j];
        if (r === '\\') j++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        j++;
      }
      blank(i + 1, j);
      i = j + 1;
      last = '/';
      word = '';
    } else {
      if (c === '{') depth++;
      else if (c === '}') depth--;
      if (/[\w$]/.test(c)) {
        word = /[\w$]/.test(last) ? word + c : c;
        last = c;
      } else if (!/\s/.test(c)) {
        last = c;
        word = '';
      }
      i++;
    }
  }
  return chars.join('');
}

// `import … from '…'`, `import type …`, `export … from '…'`, `export type … from '…'`, `export * from '…'`: the names
// between the keyword and `from` may run over several lines.
const STATIC_FROM = /^[ \t]*(?:import|export)(?:\s+type)?\s+(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?)?\s*from\s*(['"])([^'"\n]+)\1/gm;
const SIDE_EFFECT = /^[ \t]*import\s*(['"])([^'"\n]+)\1/gm;
// `import('…')` as code or as a type (`typeof import('…')`, `import('…').Name`).
const DYNAMIC = /(?<![\w$.])import\s*\(\s*(['"])([^'"\n]+)\1\s*[,)]/g;

/**
 * The module specifiers `text` imports or re-exports from, in order of
 * appearance, type-only ones included; comments are skipped.
 *
 * @param {string} text TypeScript source.
 * @returns {string[]}
 */
export function findImportSpecifiers(text) {
  const code = blankCommentsTemplatesAndRegexes(text);
  /** @type {{ at: number, specifier: string }[]} */
  const found = [];
  for (const pattern of [STATIC_FROM, SIDE_EFFECT, DYNAMIC]) {
    for (const match of code.matchAll(pattern)) found.push({ at: match.index, specifier: match[2] ?? '' });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.specifier);
}

/**
 * The file a relative `specifier` of `fromFile` names, relative to `root`:
 * the path as written, with `.js` read as `.ts`, with `.ts` or `.d.ts` added,
 * or a folder's `index.ts`. `null` when the specifier is not relative, or
 * names a file that is not TypeScript (JSON, say), or lies outside `root`;
 * `undefined` when it names nothing at all.
 *
 * @param {string} root
 * @param {string} fromFile Relative to `root`, with `/`.
 * @param {string} specifier
 * @returns {string | null | undefined}
 */
export function resolveImport(root, fromFile, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  // A bundler's query (`?raw`) or a fragment names no other file.
  const base = resolve(root, dirname(fromFile), specifier.replace(/[?#].*$/, ''));
  const candidates = [base];
  // Only .ts files are listed, so a .js specifier can only name its .ts source.
  if (base.endsWith('.js')) candidates.push(base.replace(/\.js$/, '.ts'));
  candidates.push(`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts'));
  const file = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (file === undefined) return /\.[cm]?[jt]s$/.test(base) || !/\.\w+$/.test(base) ? undefined : null;
  const path = relative(resolve(root), file);
  if (path.startsWith('..') || !path.endsWith('.ts')) return null;
  return path.split(sep).join('/');
}

/**
 * The room of a file given relative to its source root: `features/<name>`
 * for a feature's file, the first folder's name for any other folder
 * (`domain`, `exchange`, …), `(root)` for a file at the root itself.
 *
 * @param {string} file
 * @returns {string}
 */
export function roomOf(file) {
  const parts = file.split('/');
  if (parts.length === 1) return '(root)';
  if (parts[0] === 'features' && parts.length >= 3) return `features/${parts[1]}`;
  return parts[0] ?? '(root)';
}

/**
 * Why an import from room `from` of room `to` breaks the rooms' rules, or
 * `undefined` when it keeps them: `domain` imports only `domain`; `exchange`
 * imports `domain` and `exchange`; `features/<a>` imports `domain`,
 * `exchange` and `features/<a>`; any other room, the root's files
 * included, imports anything.
 *
 * @param {string} from
 * @param {string} to
 * @returns {string | undefined}
 */
export function roomRuleBroken(from, to) {
  if (from === 'domain') return to === 'domain' ? undefined : 'a domain/ file imports only from domain/';
  if (from === 'exchange') return to === 'domain' || to === 'exchange' ? undefined : 'an exchange/ file imports only from domain/ and exchange/';
  if (from.startsWith('features/')) {
    if (to === 'domain' || to === 'exchange' || to === from) return undefined;
    return to.startsWith('features/')
      ? `a feature imports nothing of another feature (${from}/ imports from ${to}/)`
      : `a ${from}/ file imports only from domain/, exchange/ and ${from}/`;
  }
  return undefined;
}

/**
 * The strongly connected components of `graph` (Tarjan's), each a list of
 * files; a component of one file is a cycle only when the file imports itself.
 *
 * @param {Map<string, Set<string>>} graph
 * @returns {string[][]}
 */
function components(graph) {
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const found = [];
  let counter = 0;
  /** @param {string} node */
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      /** @type {string[]} */
      const component = [];
      let member;
      do {
        member = stack.pop() ?? node;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * Every elementary cycle of `graph`, each once: a list of files starting at
 * its first in sort order, the last importing the first. Lists at most
 * `limit` cycles, sorted.
 *
 * @param {Map<string, Set<string>>} graph
 * @param {number} [limit]
 * @returns {{ cycles: string[][], truncated: boolean }}
 */
export function findCycles(graph, limit = MAX_CYCLES) {
  /** @type {string[][]} */
  const cycles = [];
  let truncated = false;
  for (const component of components(graph)) {
    const members = new Set(component);
    if (component.length === 1 && !(graph.get(component[0] ?? '')?.has(component[0] ?? '') ?? false)) continue;
    // From each start, paths through later members only: a cycle is found once, from its first file.
    for (const start of component) {
      /** @type {string[]} */
      const path = [start];
      const onPath = new Set(path);
      /** @param {string} node @returns {boolean} whether to go on */
      const walk = (node) => {
        for (const next of [...(graph.get(node) ?? [])].sort()) {
          if (!members.has(next) || next < start) continue;
          if (next === start) {
            if (cycles.length >= limit) {
              truncated = true;
              return false;
            }
            cycles.push([...path]);
          } else if (!onPath.has(next)) {
            path.push(next);
            onPath.add(next);
            const goOn = walk(next);
            onPath.delete(next);
            path.pop();
            if (!goOn) return false;
          }
        }
        return true;
      };
      if (!walk(start)) break;
    }
  }
  cycles.sort((a, b) => a.join('\n').localeCompare(b.join('\n')));
  return { cycles, truncated };
}

/**
 * The longest chain of imports in `graph`: its number of imports and its
 * files, the importing one first. The files of a cycle count as one, so the
 * chain is finite whatever the cycles.
 *
 * @param {Map<string, Set<string>>} graph
 * @returns {{ depth: number, chain: string[] }}
 */
export function importDepth(graph) {
  const componentOf = new Map();
  const all = components(graph);
  for (const component of all) for (const member of component) componentOf.set(member, component);
  /** @type {Map<string[], { depth: number, chain: string[] }>} */
  const memo = new Map();
  /** @param {string[]} component @returns {{ depth: number, chain: string[] }} */
  const longest = (component) => {
    const known = memo.get(component);
    if (known !== undefined) return known;
    let best = { depth: 0, chain: [component[0] ?? ''] };
    for (const member of component) {
      for (const next of [...(graph.get(member) ?? [])].sort()) {
        const target = componentOf.get(next);
        if (target === undefined || target === component) continue;
        const below = longest(target);
        if (below.depth + 1 > best.depth) best = { depth: below.depth + 1, chain: [member, ...below.chain] };
      }
    }
    memo.set(component, best);
    return best;
  };
  let result = { depth: 0, chain: /** @type {string[]} */ ([]) };
  for (const component of all) {
    const found = longest(component);
    if (found.depth > result.depth || result.chain.length === 0) result = found;
  }
  return result;
}

/**
 * Reads the TypeScript under `root` (see {@link listSourceFiles}) and checks
 * its relative imports: the cycles among its files and, where the root has
 * `domain/`, `exchange/` or `features/` folders, the rooms' rules (see
 * {@link roomRuleBroken}); also the import depth and the files per room.
 *
 * @param {string} root A source folder, such as `packages/core/src`.
 * @returns {ImportCheck}
 */
export function checkImports(root) {
  const files = listSourceFiles(root);
  const rooms = ROOM_FOLDERS.some((folder) => existsSync(join(root, folder)) && statSync(join(root, folder)).isDirectory());
  /** @type {Map<string, Set<string>>} */
  const graph = new Map(files.map((file) => [file, new Set()]));
  /** @type {RoomViolation[]} */
  const violations = [];
  /** @type {{ file: string, specifier: string }[]} */
  const unresolved = [];
  for (const file of files) {
    for (const specifier of findImportSpecifiers(readFileSync(join(root, file), 'utf8'))) {
      const target = resolveImport(root, file, specifier);
      if (target === undefined) unresolved.push({ file, specifier });
      if (typeof target !== 'string' || !graph.has(target)) continue;
      graph.get(file)?.add(target);
      const rule = rooms ? roomRuleBroken(roomOf(file), roomOf(target)) : undefined;
      if (rule !== undefined) violations.push({ file, target, specifier, rule });
    }
  }
  /** @type {Record<string, number>} */
  const filesPerRoom = {};
  for (const file of files) filesPerRoom[roomOf(file)] = (filesPerRoom[roomOf(file)] ?? 0) + 1;
  const { cycles, truncated } = findCycles(graph);
  const { depth, chain } = importDepth(graph);
  return { root, files: files.length, cycles, cyclesTruncated: truncated, rooms, violations, depth, chain, filesPerRoom, unresolved };
}

/**
 * The report of {@link checkImports}'s results for a reader: per root, its
 * files, depth and rooms, then each cycle and each broken rule on a line of
 * its own.
 *
 * @param {readonly ImportCheck[]} results
 * @returns {string}
 */
export function formatReport(results) {
  /** @type {string[]} */
  const lines = [];
  for (const result of results) {
    const perRoom = Object.entries(result.filesPerRoom)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([room, count]) => `${room} ${count}`)
      .join(', ');
    lines.push(`${result.root}: ${result.files} files (${perRoom}); rooms ${result.rooms ? 'checked' : 'none yet'}`);
    lines.push(`  depth ${result.depth}: ${result.chain.join(' → ')}`);
    for (const cycle of result.cycles) lines.push(`  cycle: ${[...cycle, cycle[0]].join(' → ')}`);
    if (result.cyclesTruncated) lines.push(`  … and more cycles than the ${MAX_CYCLES} listed`);
    for (const violation of result.violations)
      lines.push(`  room: ${violation.file} imports ${violation.target} ('${violation.specifier}'): ${violation.rule}`);
    for (const miss of result.unresolved) lines.push(`  unresolved (not counted): ${miss.file} imports '${miss.specifier}'`);
    const problems = result.cycles.length + result.violations.length;
    lines.push(`  ${problems === 0 ? 'ok' : `${result.cycles.length} cycle(s), ${result.violations.length} room violation(s)`}`);
  }
  return lines.join('\n');
}

/**
 * The command line: checks each root given (by default every
 * `packages/*\/src` under the working directory), prints the report and
 * returns the exit code: 1 when a root has a cycle or breaks a room's rule.
 *
 * @param {readonly string[]} roots
 * @returns {number}
 */
export function main(roots) {
  const chosen =
    roots.length > 0
      ? roots
      : readdirSync('packages')
          .map((name) => join('packages', name, 'src'))
          .filter((path) => existsSync(path))
          .sort();
  const results = chosen.map((root) => checkImports(root));
  const failed = results.some((result) => result.cycles.length > 0 || result.violations.length > 0);
  (failed ? console.error : console.log)(formatReport(results));
  return failed ? 1 : 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
