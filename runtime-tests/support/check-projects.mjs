// Runs on Node, started by runtime-tests/consumer-types.test.ts: type-checks several tsconfig
// projects in one process through the JavaScript API of a TypeScript 5.x or 6.x (7.0 has none),
// as `tsc --build` checks them but forced (no project skipped as up to date) and writing nothing
// (no .tsbuildinfo beside the configs). The compiler then loads once and the projects share
// what it parsed, about half the time of a `tsc -p` for each. Prints, as JSON, each project's
// exit status and diagnostics, by the absolute path of its tsconfig.
//
// Usage: node check-projects.mjs <path of typescript/lib/typescript.js> <tsconfig>...
import { createRequire } from 'node:module';

const [typescript, ...configs] = process.argv.slice(2);
if (typescript === undefined || configs.length === 0) {
  console.error('usage: node check-projects.mjs <path of typescript/lib/typescript.js> <tsconfig>...');
  process.exit(2);
}
/** @type {typeof import('typescript')} */
const ts = createRequire(import.meta.url)(typescript);

/** @type {import('typescript').Diagnostic[]} */
let diagnostics = [];
const host = ts.createSolutionBuilderHost(
  ts.sys,
  undefined,
  (diagnostic) => diagnostics.push(diagnostic),
  () => {},
);
host.writeFile = () => {};
const builder = ts.createSolutionBuilder(host, configs, { force: true });
/** @type {Record<string, { status: number, output: string }>} */
const results = {};
const formatHost = { getCanonicalFileName: (/** @type {string} */ name) => name, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' };
// What is reported while the next project is picked (its tsconfig read) is that project's.
for (let project = builder.getNextInvalidatedProject(); project !== undefined; project = builder.getNextInvalidatedProject()) {
  const status = project.done();
  results[project.project] = { status, output: ts.formatDiagnostics(diagnostics, formatHost) };
  diagnostics = [];
}
// Anything left belongs to no project checked (a tsconfig that could not be read): under ''.
if (diagnostics.length > 0) results[''] = { status: 1, output: ts.formatDiagnostics(diagnostics, formatHost) };
console.log(JSON.stringify(results));
