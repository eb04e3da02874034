// Runs on Node under Vitest: the published types as users' TypeScript compiles them. Every
// publishable package is packed by pnpm and installed by npm from the tarballs into one fresh
// project outside the workspace, where each public entry point (every subpath of each package's
// "exports") is imported and type-checked, declarations included (`skipLibCheck` off), with
// TypeScript 5.9, 6.0 and 7.0 (the native compiler), in a Node project under `module: nodenext`
// (as ES module and as CommonJS) and under `moduleResolution: bundler`; the entry points that
// run on Bun and on Workers are checked again in a project set up as `bun init` and as
// Wrangler's template set one up, against those runtimes' own types. The documentation's
// snippets and the examples are type-checked in place with the same three compilers. Needs the
// packages built first.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit, temporaryDirectories } from './runtimes.ts';
import { installTarballs, packPublishable, PUBLISHABLE, requireBuilt } from './support/publishable.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A TypeScript compiler of the workspace, called by its path: the three packages' bins share the name `tsc`. */
interface Compiler {
  readonly name: string;
  readonly major: number;
  readonly tsc: string;
}

/** TypeScript 5.9, 6.0 and 7.0, as the root's devDependencies install them. */
const COMPILERS: readonly Compiler[] = ['typescript', 'typescript6', 'typescript7'].map((dir) => {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', dir, 'package.json'), 'utf8')) as { version: string };
  return { name: `TypeScript ${version}`, major: Number(version.split('.')[0]), tsc: join(root, 'node_modules', dir, 'bin/tsc') };
});

/** TypeScript 7, the native compiler. */
const NATIVE = COMPILERS.filter(({ major }) => major === 7);

/**
 * Type packages and peers the consumer takes from the workspace (the versions the tests run),
 * linked in after the install: the runtimes' types, and the peers the declarations import
 * (`@plant-store/adapter-fetch/node` names `@whatwg-node/server`'s types, the testing kit
 * fast-check's). npm installs the tarballs without peers, so that nothing but the packages' own
 * dependencies comes from the registry.
 */
const LINKED = ['@types/node', '@types/bun', '@cloudflare/workers-types', '@whatwg-node/server', 'fast-check'];

/** The entry points every Fetch runtime imports: the core, the Fetch adapter and what runs anywhere with fetch. */
const FETCH_ENTRIES = [
  '@plant-store/core',
  '@plant-store/adapter-fetch',
  '@plant-store/auth-jwt',
  '@plant-store/client',
  '@plant-store/docs-page',
  '@plant-store/store-memory',
  '@plant-store/testing/scenarios',
  '@plant-store/testing/store-contract',
];

/** The entry points a Bun project imports: the packages the README says run on Bun, and the Bun launcher. */
const BUN_ENTRIES = [...FETCH_ENTRIES, '@plant-store/store-sqlite', '@plant-store/store-postgres', '@plant-store/server/bun'];

/** The entry points a Worker imports: those free of Node's API, D1's store and the Worker itself. */
const WORKERS_ENTRIES = [...FETCH_ENTRIES, '@plant-store/store-d1', '@plant-store/server/worker'];

/** The documentation's tsconfig files and the examples' (the root "typecheck" script checks them with one compiler). */
const documentationProjects = [
  ...readdirSync(join(root, 'docs/snippets'))
    .filter((name) => /^tsconfig.*\.json$/.test(name))
    .map((name) => `docs/snippets/${name}`),
  ...readdirSync(join(root, 'examples'))
    .filter((name) => existsSync(join(root, 'examples', name, 'tsconfig.json')))
    .map((name) => `examples/${name}/tsconfig.json`),
];

/** The strictest options users commonly set, and the declarations themselves checked (`skipLibCheck` off). */
const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: false,
  noEmit: true,
};

/** A project setting of the consumer: its tsconfig, named for what it stands for. */
interface Setting {
  readonly name: string;
  readonly config: string;
  readonly compilerOptions: Record<string, unknown>;
  readonly files: readonly string[];
  /**
   * The compilers it is checked with. A runtime's globals come from its own types, the same
   * files for TypeScript 5.9, 6.0 and 7.0 (bun-types switches files from 7.1 on), and what
   * does depend on the compiler (module resolution, the lib, the declarations' syntax) the
   * Node project checks with all three: the Bun and Workers projects take the fast one.
   */
  readonly compilers: readonly Compiler[];
}

const SETTINGS: readonly Setting[] = [
  {
    name: 'a Node project under module nodenext (ES module and CommonJS)',
    config: 'tsconfig.nodenext.json',
    compilerOptions: { module: 'nodenext', target: 'es2022', lib: ['es2022'], types: ['node'], resolveJsonModule: true },
    files: ['entries.ts', 'entries-require.cts'],
    compilers: COMPILERS,
  },
  {
    name: 'a Node project under moduleResolution bundler (module preserve: import and require)',
    config: 'tsconfig.bundler.json',
    compilerOptions: { module: 'preserve', moduleResolution: 'bundler', target: 'es2022', lib: ['es2022'], types: ['node'], resolveJsonModule: true },
    files: ['entries.ts', 'entries-require.cts'],
    compilers: COMPILERS,
  },
  {
    name: 'a Bun project as `bun init` sets it up (@types/bun, no DOM)',
    config: 'tsconfig.bun.json',
    compilerOptions: { lib: ['ESNext'], target: 'ESNext', module: 'Preserve', moduleDetection: 'force', moduleResolution: 'bundler', types: ['bun'] },
    files: ['bun.ts'],
    compilers: NATIVE,
  },
  {
    name: "a Worker as Wrangler's template sets it up (@cloudflare/workers-types, no DOM, no Node)",
    config: 'tsconfig.workers.json',
    compilerOptions: { target: 'es2024', lib: ['es2024'], module: 'es2022', moduleResolution: 'bundler', types: ['@cloudflare/workers-types'] },
    files: ['worker.ts'],
    compilers: NATIVE,
  },
];

/** One compiler's diagnostic: its first line and the lines that continue it. */
interface Diagnostic {
  /** The file it is in, as tsc prints it (relative to the project); undefined for one about the whole program. */
  readonly file: string | undefined;
  readonly text: string;
}

/** What one `tsc -p` printed and how it ended. */
interface Checked {
  readonly code: number | null;
  readonly diagnostics: readonly Diagnostic[];
  readonly output: string;
  readonly seconds: number;
}

/** tsc's diagnostics (`--pretty false`): `file(line,col): error TS…: …` or `error TS…: …`, continued by indented lines. */
function parseDiagnostics(output: string): Diagnostic[] {
  const found: { file: string | undefined; lines: string[] }[] = [];
  for (const line of output.split('\n')) {
    const located = /^(.+?)\(\d+,\d+\): (?:error|warning) TS\d+: /.exec(line);
    if (located !== null) found.push({ file: located[1], lines: [line] });
    else if (/^(?:error|warning) TS\d+: /.test(line)) found.push({ file: undefined, lines: [line] });
    else if (line.startsWith(' ') && found.length > 0) found.at(-1)!.lines.push(line);
  }
  return found.map(({ file, lines }) => ({ file, text: lines.join('\n') }));
}

/**
 * Whether a diagnostic is Plant Store's to answer for: in the consumer's own files, in a
 * package's declarations, or about the whole program. Those in other packages' declarations
 * (the runtimes' types, `@whatwg-node/server`'s, which assume a newer lib than a project may
 * have) are theirs: reported, and not failed on.
 */
const isOurs = ({ file }: Diagnostic) => file === undefined || !file.includes('node_modules/') || file.includes('node_modules/@plant-store/');

/** At most `limit` of the queued actions run at a time. */
function limiter(limit: number): <T>(action: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (action) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await action();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

// A compiler at a time per core: tsc 5.9 and 6.0 check on one thread each.
const slot = limiter(availableParallelism());
const seconds = new Map<string, number>();
const temporaryDirectory = temporaryDirectories('plant-store-consumer-types-');
let project = '';
/** The type-checked entry points, from the installed packages' "exports". */
const entries: { spec: string; json: boolean; require: boolean }[] = [];

/** Each check's result, by its test's name. */
const checks = new Map<string, Promise<Checked>>();

/** Queues `tsc -p config` in the consumer project with `compiler`, as `label`, behind the other checks. */
function queue(label: string, compiler: Compiler, config: string): void {
  const checked = slot(async () => {
    const exited = await runToExit(process.execPath, [compiler.tsc, '-p', config, '--pretty', 'false'], { cwd: project, killAfterMs: 180_000 });
    const output = `${exited.stdout}${exited.stderr}`;
    return { code: exited.code, diagnostics: parseDiagnostics(output), output, seconds: exited.ms / 1000 };
  });
  // Its test awaits it later; a failure before then is that test's, not an unhandled rejection.
  checked.catch(() => undefined);
  checks.set(label, checked);
}

/** The package a declaration file belongs to, from its path (the last `node_modules/` in it). */
const packageOf = (file: string) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file;

/** What one documentation project's check found: its exit status and what the compiler said. */
interface ProjectChecked {
  readonly status: number | undefined;
  readonly output: string;
}

/** Each documentation project's result, by its test's name. */
const projectChecks = new Map<string, Promise<ProjectChecked>>();

/**
 * Queues the documentation's projects with `compiler`, in place: all in one process through
 * the compiler's JavaScript API (support/check-projects.mjs) where it has one, which spares
 * loading the compiler and its lib files for each; one `tsc -p` each with the native compiler,
 * which has no such API and needs no sparing.
 */
function queueProjects(compiler: Compiler, configs: readonly string[]): void {
  if (compiler.major >= 7) {
    for (const config of configs) {
      const checked = slot(() => runToExit(process.execPath, [compiler.tsc, '-p', config, '--pretty', 'false'], { cwd: root, killAfterMs: 180_000 }));
      const result = checked.then(({ code, stdout, stderr, ms }) => {
        seconds.set(`${compiler.name}: ${config}`, ms / 1000);
        return { status: code ?? undefined, output: `${stdout}${stderr}` };
      });
      result.catch(() => undefined);
      projectChecks.set(`${compiler.name}: ${config}`, result);
    }
    return;
  }
  const runner = join(root, 'runtime-tests/support/check-projects.mjs');
  const typescript = join(dirname(dirname(compiler.tsc)), 'lib/typescript.js');
  const checked = slot(() => runToExit(process.execPath, [runner, typescript, ...configs], { cwd: root, killAfterMs: 300_000 }));
  for (const config of configs) {
    const result = checked.then(({ code, stdout, stderr, ms }) => {
      seconds.set(`${compiler.name}: the documentation's ${configs.length} projects, in one process`, ms / 1000);
      if (code !== 0) return { status: undefined, output: `check-projects.mjs exited with ${code}:\n${stdout}\n${stderr}` };
      const results = JSON.parse(stdout) as Record<string, { status: number; output: string }>;
      const own = results[join(root, config)];
      return own ?? { status: undefined, output: `no result for ${config}:\n${stdout}` };
    });
    result.catch(() => undefined);
    projectChecks.set(`${compiler.name}: ${config}`, result);
  }
}

/** Fails with what the compiler said unless it found nothing of ours; says in one line what it found in other packages. */
function expectClean(label: string, checked: Checked): void {
  seconds.set(label, checked.seconds);
  const theirs = checked.diagnostics.filter((diagnostic) => !isOurs(diagnostic));
  if (theirs.length > 0) {
    const where = [...new Set(theirs.map(({ file }) => packageOf(file!)))].join(', ');
    console.log(`${label}: ${theirs.length} diagnostics in the declarations of ${where}, not ours; the first: ${theirs[0]!.text}`);
  }
  expect(
    checked.diagnostics.filter(isOurs).map(({ text }) => text),
    label,
  ).toEqual([]);
  // A compiler that failed without a diagnostic (a crash, a kill at the time limit) checked nothing.
  if (checked.diagnostics.length === 0) expect(checked.code, `${label} exited without diagnostics:\n${checked.output}`).toBe(0);
}

beforeAll(async () => {
  requireBuilt();
  // The documentation's projects need no install: checked while pnpm and npm mostly wait.
  for (const compiler of COMPILERS) queueProjects(compiler, documentationProjects);
  const work = temporaryDirectory();
  const packs = join(work, 'packs');
  project = join(work, 'project');
  mkdirSync(packs);
  mkdirSync(project);
  const started = performance.now();
  await installTarballs(project, 'plant-store-consumer-types', (await packPublishable(packs)).values(), ['--legacy-peer-deps']);
  seconds.set('pack and install', (performance.now() - started) / 1000);
  for (const name of LINKED) {
    mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true });
    symlinkSync(realpathSync(join(root, 'node_modules', name)), join(project, 'node_modules', name));
  }

  for (const { name } of PUBLISHABLE) {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, unknown>>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath === './package.json') continue;
      const spec = subpath === '.' ? name : `${name}${subpath.slice(1)}`;
      if (typeof target === 'string') entries.push({ spec, json: target.endsWith('.json'), require: true });
      else entries.push({ spec, json: false, require: 'require' in target });
    }
  }
  const line = (kind: 'import' | 'require', index: number, { spec, json }: (typeof entries)[number]) =>
    kind === 'require'
      ? `import entry${index} = require(${JSON.stringify(spec)});`
      : json
        ? `import entry${index} from ${JSON.stringify(spec)} with { type: 'json' };`
        : `import * as entry${index} from ${JSON.stringify(spec)};`;
  const source = (lines: string[]) => `${lines.join('\n')}\n`;
  writeFileSync(join(project, 'entries.ts'), source(entries.map((entry, index) => line('import', index, entry))));
  writeFileSync(join(project, 'entries-require.cts'), source(entries.flatMap((entry, index) => (entry.require ? [line('require', index, entry)] : []))));
  const imports = (specs: readonly string[]) => source(specs.map((spec, index) => `import * as entry${index} from ${JSON.stringify(spec)};`));
  writeFileSync(join(project, 'bun.ts'), imports(BUN_ENTRIES));
  writeFileSync(join(project, 'worker.ts'), imports(WORKERS_ENTRIES));
  for (const { config, compilerOptions, files } of SETTINGS) {
    writeFileSync(join(project, config), `${JSON.stringify({ compilerOptions: { ...compilerOptions, ...STRICT }, files }, null, 2)}\n`);
  }
  // Every check queued at once, the slow compilers' first; each test awaits its own.
  for (const compiler of COMPILERS) {
    for (const setting of SETTINGS) if (setting.compilers.includes(compiler)) queue(`${compiler.name}: ${setting.name}`, compiler, setting.config);
  }
}, 200_000);

afterAll(() => {
  if (seconds.size > 0) console.log([...seconds].map(([label, spent]) => `${spent.toFixed(1)} s  ${label}`).join('\n'));
});

describe('the published types, installed from the tarballs', () => {
  it('are checked with TypeScript 5, 6 and 7, every entry point of every package', () => {
    expect(COMPILERS.map(({ major }) => major)).toEqual([5, 6, 7]);
    expect(entries.map(({ spec }) => spec)).toEqual(expect.arrayContaining([...PUBLISHABLE.map(({ name }) => name), ...BUN_ENTRIES, ...WORKERS_ENTRIES]));
  });

  for (const setting of SETTINGS) {
    for (const compiler of setting.compilers) {
      const label = `${compiler.name}: ${setting.name}`;
      it(label, async () => expectClean(label, await checks.get(label)!), 400_000);
    }
  }
});

describe("the documentation's snippets and the examples, against the built packages", () => {
  for (const compiler of COMPILERS) {
    for (const config of documentationProjects) {
      const label = `${compiler.name}: ${config}`;
      it(
        label,
        async () => {
          const { status, output } = await projectChecks.get(label)!;
          expect({ status, output }, label).toEqual({ status: 0, output: '' });
        },
        400_000,
      );
    }
  }
});
