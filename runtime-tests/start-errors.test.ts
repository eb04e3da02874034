// Runs under vitest on Node, starting the built standalone servers on every runtime (Node 22, 24
// and 26, Bun, Deno, workerd): settings a new user gets wrong, and starts that fail, each said in
// one line that names the setting and the fix. Real occupied ports, real files in temporary
// directories.
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runToExit, RUNTIMES, spawnServer, temporaryDirectories, type Exited, type Runtime } from './runtimes.ts';

const directory = temporaryDirectories('plant-store-start-');

/** The variables the server reads, and postgres.js's: the narrow `--allow-env` a Deno user may give. */
const NAMED_VARIABLES =
  'HOST,PORT,PLANT_STORE_TOKENS,PLANT_STORE_JWT_ISSUER,PLANT_STORE_JWT_AUDIENCE,PLANT_STORE_JWKS_URL,PLANT_STORE_JWT_SCOPE,PLANT_STORE_JWKS_COOLDOWN,PLANT_STORE_ACCESS_LOG,PLANT_STORE_DATABASE_URL,PLANT_STORE_LOG_FORMAT,PLANT_STORE_LOG_LEVEL,PLANT_STORE_METRICS,PLANT_STORE_CORS_ORIGINS,PLANT_STORE_DOCS,PLANT_STORE_MAX_IN_FLIGHT,PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS,PLANT_STORE_RATE_LIMIT,PLANT_STORE_WORKERS,PG*';

/** `target` with Deno given `--allow-env` whole, or for the named variables only; other runtimes as they are. */
function withEnvPermission(target: Runtime, whole: boolean): Runtime {
  if (target.name !== 'Deno') return target;
  const flag = whole ? '--allow-env' : `--allow-env=${NAMED_VARIABLES}`;
  return { ...target, production: target.production.map((arg) => (arg.startsWith('--allow-env') ? flag : arg)) };
}

/**
 * Runs the production server of `target` until it exits (30 s at most, then
 * it is killed), with only `env` and what any process needs, in a new
 * temporary directory or `cwd`, outside the project.
 */
function runServerToExit(target: Runtime, env: Record<string, string>, cwd?: string): Promise<Exited> {
  return runToExit(target.binary, withEnvPermission(target, true).production, { cwd: cwd ?? directory(), env });
}

/** The server's own lines, without a runtime's warnings (Node 22's "SQLite is an experimental feature"). */
const ownLines = (output: string) => output.split('\n').filter((line) => line.startsWith('plant-store'));

/** A real listener on 127.0.0.1 holding a free port, as another server would. */
async function holdPort(): Promise<{ port: number; release(): Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  return {
    port: (server.address() as { port: number }).port,
    release: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const HOST_FIX =
  /: it is not an address of this machine, nor a name resolving to one; set HOST to an address of this machine, 127\.0\.0\.1 .* or 0\.0\.0\.0 from anywhere$/;

describe.each(RUNTIMES.map((target) => [target.name, target] as const))('%s standalone', (name, target) => {
  it('a port in use stops the start with one line naming PORT and HOST, and the fix; exit 1', async () => {
    const held = await holdPort();
    try {
      const { code, stdout, stderr } = await runServerToExit(target, { HOST: '127.0.0.1', PORT: String(held.port), PLANT_STORE_TOKENS: 't' });
      expect({ code, lines: ownLines(stdout + stderr) }).toEqual({
        code: 1,
        lines: [
          `plant-store: PORT: another server already listens on 127.0.0.1:${held.port} (HOST:PORT); stop it, or set PORT to a free port (PORT=0 picks one)`,
        ],
      });
    } finally {
      await held.release();
    }
  });

  it('a HOST that resolves to nothing, or is an address of another machine, stops the start with one line naming HOST; exit 1', async () => {
    // .invalid never resolves (RFC 2606); 192.0.2.1 is for documentation only (RFC 5737), never this machine's.
    const [unknown, elsewhere] = await Promise.all(
      ['plant-store-test.invalid', '192.0.2.1'].map((host) => runServerToExit(target, { HOST: host, PORT: '0', PLANT_STORE_TOKENS: 't' })),
    );
    expect(unknown!.code).toBe(1);
    expect(ownLines(unknown!.stdout + unknown!.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(`^plant-store: HOST: cannot listen on "plant-store-test\\.invalid" \\((ENOTFOUND|EAI_AGAIN|EINVAL)\\)${HOST_FIX.source}`),
      ),
    ]);
    expect(elsewhere!.code).toBe(1);
    expect(ownLines(elsewhere!.stdout + elsewhere!.stderr)).toEqual([
      expect.stringMatching(new RegExp(`^plant-store: HOST: cannot listen on "192\\.0\\.2\\.1" \\((EADDRNOTAVAIL|EINVAL)\\)${HOST_FIX.source}`)),
    ]);
  });

  it('PLANT_STORE_TOKENS set with no token in it stops the start with one line; exit 1', async () => {
    const results = await Promise.all(['', ' , '].map((tokens) => runServerToExit(target, { PORT: '0', PLANT_STORE_TOKENS: tokens })));
    expect(results.map(({ code, stdout, stderr }) => ({ code, stdout, stderr }))).toEqual(
      results.map(() => ({
        code: 1,
        stdout: '',
        stderr:
          'plant-store: PLANT_STORE_TOKENS: set but holds no token; set it to the accepted tokens, comma-separated, or unset it to have one made and printed\n',
      })),
    );
  });

  it('PLANT_STORE_DATABASE_URL set but empty stops the start with one line, rather than writing to a local file; exit 1', async () => {
    const results = await Promise.all(['', ' '].map((url) => runServerToExit(target, { PORT: '0', PLANT_STORE_TOKENS: 't', PLANT_STORE_DATABASE_URL: url })));
    expect(results.map(({ code, stdout, stderr }) => ({ code, stdout, lines: ownLines(stderr) }))).toEqual(
      results.map(() => ({
        code: 1,
        stdout: '',
        lines: [
          'plant-store: PLANT_STORE_DATABASE_URL: set but empty; set it to memory:, sqlite:PATH, a file: URL, postgres://… or rqlite://…, or unset it for the default store',
        ],
      })),
    );
  });

  it('a switch refuses a word it does not take, in one line naming the words it takes; exit 1', async () => {
    const { code, stdout, stderr } = await runServerToExit(target, { PORT: '0', PLANT_STORE_TOKENS: 't', PLANT_STORE_ACCESS_LOG: 'disabled' });
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: 'plant-store: PLANT_STORE_ACCESS_LOG: expected on or off (or true/false, yes/no, 1/0), got "disabled"\n',
    });
  });

  it('warns of each PLANT_STORE_* variable it does not read, naming the nearest, and serves with false/no switches off', async () => {
    const server = await spawnServer(withEnvPermission(target, true), 'working', {
      PLANT_STORE_TOKEN: 's3cret',
      PLANT_STORE_DATABSE_URL: 'memory:',
      PLANT_STORE_PORT: '9',
      PLANT_STORE_LOG_PATH: '/var/log/plant-store.log',
      PLANT_STORE_ACCESS_LOG: 'false',
      PLANT_STORE_DOCS: 'no',
    });
    try {
      expect((await send(server.baseUrl, { method: 'GET', path: '/docs' })).status).toBe(404);
      expect(
        (
          await send(server.baseUrl, {
            path: '/plants',
            headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
            body: '{"id":1,"name":"Fern"}',
          })
        ).status,
      ).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const lines = ownLines(server.output());
      expect(lines.filter((line) => line.includes('is not a setting'))).toEqual([
        'plant-store: PLANT_STORE_DATABSE_URL is not a setting, so it is ignored; did you mean PLANT_STORE_DATABASE_URL?',
        // On workerd, PLANT_STORE_D1_DIR is a setting, and the nearer one (left unset here, so it is offered).
        'plant-store: PLANT_STORE_LOG_PATH is not a setting, so it is ignored; the nearest is PLANT_STORE_LOG_FORMAT, and --help lists them all',
        'plant-store: PLANT_STORE_PORT is not a setting, so it is ignored; did you mean PORT?',
        'plant-store: PLANT_STORE_TOKEN is not a setting, so it is ignored; did you mean PLANT_STORE_TOKENS?',
      ]);
      // Written before the server starts, so they are seen even when the start then fails.
      expect(lines.findIndex((line) => line.includes('is not a setting'))).toBeLessThan(lines.findIndex((line) => line.includes('listening on')));
      // PLANT_STORE_ACCESS_LOG=false: no access-log line for either request, with the process over and its output complete.
      expect(server.output()).not.toMatch(/^(GET|POST) \//m);
    } finally {
      await server.close();
    }
  });

  it('a variable of another runtime is said to be ignored here, or read quietly where it is read', async () => {
    const { code, stderr } = await runServerToExit(target, { PORT: '0', PLANT_STORE_TOKENS: '', PLANT_STORE_D1_DIR: join(directory(), 'd1') });
    // The empty token list stops the start at once, after the warnings.
    expect(code).toBe(1);
    expect(ownLines(stderr).filter((line) => line.includes('PLANT_STORE_D1_DIR'))).toEqual(
      name === 'workerd' ? [] : [`plant-store: PLANT_STORE_D1_DIR is read on workerd only, so it is ignored on ${name.split(' ')[0]}`],
    );
  });

  it('with PLANT_STORE_LOG_FORMAT=json, a warning and a start error are one JSON line each', async () => {
    const held = await holdPort();
    try {
      const { code, stdout, stderr } = await runServerToExit(target, {
        PORT: String(held.port),
        PLANT_STORE_TOKENS: 't',
        PLANT_STORE_TOKEN: 't',
        PLANT_STORE_LOG_FORMAT: 'json',
        PLANT_STORE_DATABASE_URL: 'memory:',
      });
      expect(code).toBe(1);
      const lines = (stdout + stderr)
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toEqual([
        {
          time: expect.any(String),
          level: 'warn',
          msg: 'plant-store: PLANT_STORE_TOKEN is not a setting, so it is ignored; did you mean PLANT_STORE_TOKENS?',
          variable: 'PLANT_STORE_TOKEN',
          nearest: 'PLANT_STORE_TOKENS',
        },
        {
          time: expect.any(String),
          level: 'error',
          msg: expect.stringMatching(/^plant-store: PORT: another server already listens on 127\.0\.0\.1:\d+ \(HOST:PORT\); /),
        },
      ]);
    } finally {
      await held.release();
    }
  });
});

describe.each(RUNTIMES.map((target) => [target.name, target] as const))('%s standalone, default store', (name, target) => {
  const place = name === 'workerd' ? 'default D1 directory' : 'default SQLite file';

  it(`.plant-store as a file stops the start with one line: it is the ${place}, and how to move it; exit 1`, async () => {
    const cwd = directory();
    writeFileSync(join(cwd, '.plant-store'), 'not a directory\n');
    const { code, stdout, stderr } = await runServerToExit(target, { PORT: '0', PLANT_STORE_TOKENS: 't' }, cwd);
    expect(code).toBe(1);
    expect(ownLines(stdout + stderr)).toEqual([
      name === 'workerd'
        ? `plant-store: PLANT_STORE_D1_DIR: unset, so plants go to the default D1 directory ${cwd}/.plant-store/d1, but ${cwd}/.plant-store is a file, not a directory; set PLANT_STORE_D1_DIR=PATH to keep them in another directory, or PLANT_STORE_DATABASE_URL=memory: to keep them in memory`
        : `plant-store: PLANT_STORE_DATABASE_URL: unset, so plants go to the default SQLite file ${cwd}/.plant-store/plants.db, but ${cwd}/.plant-store is a file, not a directory; set PLANT_STORE_DATABASE_URL=sqlite:PATH to keep them in another file, or memory: to keep them in memory`,
    ]);
  });
});

it('workerd: a D1 database file that is a symbolic link stops the start with one line (workerd would not open it); exit 1', async () => {
  const workerd = RUNTIMES.find((target) => target.name === 'workerd')!;
  const cwd = directory();
  const d1 = join(cwd, 'd1');
  // The file D1 makes, found by a first start.
  const first = await spawnServer(workerd, 'working', { PLANT_STORE_D1_DIR: d1 }, cwd);
  try {
    expect((await send(first.baseUrl, { method: 'GET', path: '/readyz' })).status).toBe(200);
  } finally {
    await first.close();
  }
  const files = join(d1, 'miniflare-D1DatabaseObject');
  const [name, ...others] = readdirSync(files).filter((entry) => entry.endsWith('.sqlite') && entry !== 'metadata.sqlite');
  expect(others).toEqual([]);
  mkdirSync(join(cwd, 'elsewhere'));
  renameSync(join(files, name!), join(cwd, 'elsewhere', name!));
  symlinkSync(join(cwd, 'elsewhere', name!), join(files, name!));
  const { code, stdout, stderr } = await runServerToExit(workerd, { PORT: '0', PLANT_STORE_TOKENS: 't', PLANT_STORE_D1_DIR: d1 }, cwd);
  expect(code).toBe(1);
  expect(ownLines(stdout + stderr)).toEqual([
    `plant-store: PLANT_STORE_D1_DIR: the D1 database ${join(files, name!)} is a symbolic link, which workerd does not open; put the file it leads to there, with its -wal and -shm`,
  ]);
});

it('Deno with --allow-env for named variables only cannot list the environment, so it skips the warnings and serves', async () => {
  const deno = RUNTIMES.find((target) => target.name === 'Deno')!;
  const server = await spawnServer(withEnvPermission(deno, false), 'working', { PLANT_STORE_TOKEN: 's3cret' });
  try {
    expect(server.output()).not.toContain('is not a setting');
    expect((await send(server.baseUrl, { method: 'GET', path: '/healthz' })).status).toBe(200);
  } finally {
    await server.close();
  }
});
