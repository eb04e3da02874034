// Runs in the test process (Node): PLANT_STORE_LOG_LEVEL in the production standalone servers,
// as real processes: an invalid level stops the start in one line on every runtime, and at
// `warn` a serving server writes its warnings but neither its startup line nor its access log.
import { spawn } from 'node:child_process';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runtime, runToExit, RUNTIMES, temporaryDirectories } from './runtimes.ts';
import { until } from './support/until.ts';
import { freePort } from './support/start-postgres.mjs';

const directory = temporaryDirectories('plant-store-log-level-');

describe('PLANT_STORE_LOG_LEVEL', () => {
  it('refuses a level it does not know, in one line naming the levels; exit 1, on every runtime', async () => {
    const results = await Promise.all(
      RUNTIMES.map((target) =>
        runToExit(target.binary, target.production, { cwd: directory(), env: { PORT: '0', PLANT_STORE_TOKENS: 't', PLANT_STORE_LOG_LEVEL: 'verbose' } }),
      ),
    );
    results.forEach(({ code, stdout, stderr }, i) =>
      expect({ runtime: RUNTIMES[i]!.name, code, stdout, stderr }).toEqual({
        runtime: RUNTIMES[i]!.name,
        code: 1,
        stdout: '',
        stderr: 'plant-store: PLANT_STORE_LOG_LEVEL: expected info or error or warn or debug, got "verbose"\n',
      }),
    );
  });

  it.each(['Node 22', 'Bun'])('%s at warn: the memory store warning, no startup line, no access-log line', async (name) => {
    const target = runtime(name);
    const port = await freePort();
    const child = spawn(target.binary, target.production, {
      cwd: directory(),
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '/tmp',
        HOST: '127.0.0.1',
        PORT: String(port),
        PLANT_STORE_TOKENS: CONFORMANCE_TOKEN,
        PLANT_STORE_DATABASE_URL: 'memory:',
        PLANT_STORE_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      // No line says it listens at this level: it is ready once /healthz answers.
      await until(
        () =>
          send(url, { method: 'GET', path: '/healthz' }).then(
            (answer) => answer.status === 200,
            () => false,
          ),
        20_000,
        `${name} serves`,
      );
      const created = await send(url, {
        path: '/plants',
        headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
        body: '{"id":1,"name":"Fern"}',
      });
      expect(created.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const lines = output.split('\n').filter((line) => line !== '');
    expect(lines).toEqual([expect.stringContaining('plants are kept in memory and lost when the process stops')]);
  });
});
