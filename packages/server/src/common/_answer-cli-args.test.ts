// Runs under vitest on Node.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerCliArgs } from './_answer-cli-args.ts';
import { STANDALONE_VARIABLES } from './_standalone-variables.ts';

function answer(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = answerCliArgs(args, 'Node', { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('answerCliArgs', () => {
  it('serves when there is no argument', () => {
    expect(answer([])).toEqual({ code: undefined, out: '', err: '' });
  });

  it.each([['--help'], ['-h'], ['--version', '--help']])('%s prints the usage with every variable and its default, and exits 0', (...args) => {
    const { code, out, err } = answer(args);
    expect([code, err]).toEqual([0, '']);
    expect(out).toMatch(/^Usage: plant-store \[--help \| --version\]/);
    for (const variable of STANDALONE_VARIABLES) {
      expect(out).toContain(variable.name);
      expect(out).toContain(`default: ${variable.default}`);
    }
  });

  it.each([['--version'], ['-v']])('%s prints the package version and exits 0', (arg) => {
    expect(answer([arg])).toEqual({ code: 0, out: version, err: '' });
  });

  it.each([['--port', '80'], ['serve'], ['--help', '--verbose'], ['--help=1']])('refuses %s with one line and exit 2', (...args) => {
    const { code, out, err } = answer(args);
    expect([code, out]).toEqual([2, '']);
    expect(err).toMatch(/^plant-store: unknown argument "[^"]+"; settings are environment variables, listed by --help$/);
  });
});

describe('STANDALONE_VARIABLES', () => {
  it('lists every variable the launchers read, each once', () => {
    const source = ['read-standalone-config.ts', '../workerd/run-workerd.ts'].map((file) => readFileSync(new URL(file, import.meta.url), 'utf8')).join('\n');
    const read = new Set(source.match(/\bPLANT_STORE_[A-Z0-9_]+\b/g));
    read.delete('PLANT_STORE_DB');
    read.delete('PLANT_STORE');
    const names = STANDALONE_VARIABLES.map((variable) => variable.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...read].sort()).toEqual(names.filter((name) => name.startsWith('PLANT_STORE_')).sort());
  });
});
