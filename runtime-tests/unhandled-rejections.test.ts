// Runs in vitest on Node 20; starts Node 22 (type stripping), Bun and Deno on the
// standalone launchers' guard (packages/server/src/launcher/_log-unhandled-rejections.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runtime } from './runtimes.ts';

const GUARD = fileURLToPath(new URL('../packages/server/src/launcher/_log-unhandled-rejections.ts', import.meta.url));

describe('the standalone launchers survive an unhandled rejection', () => {
  for (const name of ['Node 22', 'Bun', 'Deno']) {
    it(`on ${name}: one line on standard error, and the process goes on`, async () => {
      const directory = mkdtempSync(join(tmpdir(), 'plant-store-rejection-'));
      try {
        const script = join(directory, 'main.ts');
        // A dropped promise, as a driver's might be; then a timer that shows the process still runs.
        writeFileSync(
          script,
          `import { logUnhandledRejections } from ${JSON.stringify(GUARD)};\n` +
            `logUnhandledRejections('text');\n` +
            `void Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1'));\n` +
            `setTimeout(() => console.log('still serving'), 100);\n`,
        );
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
