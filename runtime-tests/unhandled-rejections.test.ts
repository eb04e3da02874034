// Runs in vitest on Node 24; starts Node 22, Bun and Deno on the standalone launchers'
// guard, logUnhandledRejections, as the built @plant-store/server exports it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { runtime } from './runtimes.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

describe('the standalone launchers survive an unhandled rejection', () => {
  for (const name of ['Node 22', 'Bun', 'Deno']) {
    it(`on ${name}: one line on standard error, and the process goes on`, async () => {
      const directory = mkdtempSync(join(tmpdir(), 'plant-store-rejection-'));
      try {
        const script = join(directory, 'main.mjs');
        // A dropped promise, as a driver's might be; then a timer that shows the process still runs.
        // Bundled from the package's own entry as a program importing it resolves it (its build, not
        // its sources), into one file every runtime runs as it is.
        await build({
          stdin: {
            contents:
              `import { logUnhandledRejections } from '@plant-store/server';\n` +
              `logUnhandledRejections('text');\n` +
              `void Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1'));\n` +
              `setTimeout(() => console.log('still serving'), 100);\n`,
            resolveDir: here,
            loader: 'js',
          },
          outfile: script,
          bundle: true,
          format: 'esm',
          platform: 'node',
          target: 'es2022',
          banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
          logLevel: 'silent',
        });
        const found = runtime(name);
        const args = name === 'Deno' ? ['run', script] : [script];
        const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = execFile(
            found.binary,
            args,
            { timeout: 30_000, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', DENO_NO_UPDATE_CHECK: '1' } },
            (_, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
          );
        });
        expect({ code, stdout }).toEqual({ code: 0, stdout: 'still serving\n' });
        expect(stderr.split('\n').filter((line) => line.includes('plant-store'))).toEqual([
          'plant-store: an unhandled rejection, logged and served on: Error: connect ECONNREFUSED 127.0.0.1:1',
        ]);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    }, 40_000);
  }
});
