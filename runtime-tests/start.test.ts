// Runs on Node (vitest), over real processes: the front page's first command,
// `npm start`, on a copy of this checkout with nothing installed (on Node 20,
// this machine's own and past its end of life), then again on that copy once
// installed, on each Node line the support policy names; and `npm run start:deno` with a SQLite file outside
// the default directory, and over TLS with the certificate behind links. Connections leave through a proxy that refuses and
// counts them, so "asks nothing of the registry" is checked, not assumed; the
// copy's serving install comes from this machine's npm cache and pnpm store,
// which the full install (the test command's first half) filled.
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_LINES, runtime } from './runtimes.ts';
import { createTestAuthority } from './support/test-certificates.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const temporary = mkdtempSync(join(tmpdir(), 'plant-store-start-'));
const TOKEN = 'start-test-token';

/** Every connection a process tried to open through the proxy, as `host:port` or a URL. */
const attempts: string[] = [];
const proxy = createServer((request, response) => {
  attempts.push(request.url ?? '');
  response.writeHead(403).end();
});
proxy.on('connect', (request, socket) => {
  attempts.push(request.url ?? '');
  socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
});
let proxyUrl = '';

beforeAll(async () => {
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(() => {
  proxy.close();
  rmSync(temporary, { recursive: true, force: true });
});

/**
 * The environment of a user's terminal: none of the variables the test run's
 * own package manager set for its scripts (`npm_*`; pnpm's would point npm at
 * pnpm's own config file), except where this machine keeps npm's cache and
 * which registry and certificates it uses; no server settings; and every
 * connection through the counting proxy (npm and pnpm read both spellings).
 */
function terminalEnv(node: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_cafile', 'npm_config_userconfig']);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (kept.has(name) || !/^(npm_|PLANT_STORE_|HOST$|PORT$)/i.test(name)) env[name] = value;
  }
  const through = { HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, npm_config_https_proxy: proxyUrl, npm_config_proxy: proxyUrl, NO_PROXY: '' };
  // npm and the scripts it runs find `node` on PATH: the given Node's comes first.
  const path = `${dirname(runtime(node).binary)}${delimiter}${env['PATH'] ?? ''}`;
  return { ...env, ...through, PATH: path, PORT: '0', PLANT_STORE_TOKENS: TOKEN, ...extra };
}

interface Started {
  readonly url: string;
  /** Everything printed so far, standard output and error together. */
  output(): string;
  /** Ctrl-C in a terminal: SIGINT to the whole process group. Resolves with how the command ended. */
  interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `npm <args>` on `node` in `cwd` as its own process group, as a terminal does, and resolves once the server listens. */
async function npm(node: string, cwd: string, args: string[], env: Record<string, string> = {}): Promise<Started> {
  const child = spawn('npm', args, { cwd, env: terminalEnv(node, env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('close', (code, signal) => done({ code, signal })));
  const url = await new Promise<string>((found, fail) => {
    const read = () => {
      const match = /plant-store listening on (https?:\/\/\S+)/.exec(output);
      if (match !== null) found(match[1]!);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void ended.then(({ code, signal }) => fail(new Error(`npm ${args.join(' ')} ended (${code ?? signal}) before listening:\n${output}`)));
  });
  return {
    url,
    output: () => output,
    interrupt: () => {
      process.kill(-child.pid!, 'SIGINT');
      return ended;
    },
  };
}

/** `v20.20.2` for `Node 20`: what its `process.version` says. */
const runtimeVersionOf = (node: string) => execFileSync(runtime(node).binary, ['--version'], { encoding: 'utf8' }).trim();

/** Lines that say something failed: npm's and pnpm's own, or an error of the server. */
const failureLines = (output: string) => output.split('\n').filter((line) => /ELIFECYCLE|ERR!|npm error|failed|error:|Unsupported engine/i.test(line));

const create = (url: string, id: string) =>
  send(url, {
    path: '/plants',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: `{"id":${id},"name":"Monstera"}`,
  });

describe('npm start, on a checkout with nothing installed', () => {
  const checkout = join(temporary, 'checkout');

  beforeAll(() => {
    // The files of this checkout, as a clone (with what is not committed yet) would have them.
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
    for (const file of files.filter((name) => name !== '' && existsSync(join(root, name)))) {
      mkdirSync(dirname(join(checkout, file)), { recursive: true });
      cpSync(join(root, file), join(checkout, file));
    }
    // The store the full install used, wherever this machine keeps it (pnpm adds its own `v10`).
    const store = (JSON.parse(readFileSync(join(root, 'node_modules/.modules.yaml'), 'utf8')) as { storeDir: string }).storeDir;
    const storeDir = /^v\d+$/.test(basename(store)) ? dirname(store) : store;
    writeFileSync(
      join(checkout, 'pnpm-workspace.yaml'),
      `${readFileSync(join(checkout, 'pnpm-workspace.yaml'), 'utf8')}\nstoreDir: ${JSON.stringify(storeDir)}\n`,
    );
  });

  it('on Node 20: installs what serving needs and nothing of the toolchain, from the caches, without an engine warning, and says in one line what Node 20 gets', async () => {
    const server = await npm('Node 20', checkout, ['start'], { PLANT_STORE_DATABASE_URL: 'memory:' });
    expect((await create(server.url, '9223372036854775807')).status).toBe(200);
    const ended = await server.interrupt();
    expect(failureLines(server.output())).toEqual([]);
    expect(
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('end of life')),
    ).toEqual([
      `plant-store: Node ${runtimeVersionOf('Node 20')} is past its end of life and not supported: it serves, in memory only; install Node 22, 24 or 26 for the supported server and its SQLite store`,
    ]);
    expect(ended).toEqual({ code: 0, signal: null });
    expect(attempts, 'connections to the registry; is pnpm in npm cache and the packages in the pnpm store?').toEqual([]);
    // Each installed package has a directory under node_modules/.pnpm named after it (`@scope+name@version…`).
    const installed = readdirSync(join(checkout, 'node_modules/.pnpm')).map((entry) => entry.replace(/^(@?[^@]+)@.*$/, '$1').replace('+', '/'));
    expect(installed).toEqual(expect.arrayContaining(['esbuild', 'valibot', 'postgres', 'swagger-ui-dist']));
    for (const tool of ['typescript', 'vitest', 'vite', 'prettier', 'tsup', 'publint', '@arethetypeswrong/core', 'fast-check', 'express']) {
      expect(installed, tool).not.toContain(tool);
    }
  });

  it.each(NODE_LINES)('on %s: starts again without installing or asking the registry, and Ctrl-C ends it with exit 0 and no error line', async (node) => {
    const server = await npm(node, checkout, ['start'], { PLANT_STORE_DATABASE_URL: 'memory:' });
    expect(server.output()).not.toContain('end of life');
    const ended = await server.interrupt();
    // pnpm's install prints its scope and progress; none of it may appear.
    expect(server.output()).not.toMatch(/Lockfile|Progress|Scope:/);
    expect(failureLines(server.output())).toEqual([]);
    expect(ended).toEqual({ code: 0, signal: null });
    expect(attempts).toEqual([]);
  });
});

describe('npm run start:deno', () => {
  it('serves from a SQLite file in a directory of its own, and stops on Ctrl-C with exit 0', async () => {
    const data = mkdtempSync(join(temporary, 'deno-'));
    const server = await npm('Node 24', root, ['run', 'start:deno'], { PLANT_STORE_DATABASE_URL: `sqlite:${join(data, 'plants.db')}` });
    expect(server.output()).toContain(`(store: sqlite at ${join(data, 'plants.db')})`);
    const created = await create(server.url, '9007199254740993');
    expect([created.status, created.body]).toEqual([200, '{"name":"Monstera"}']);
    const ended = await server.interrupt();
    expect(failureLines(server.output())).toEqual([]);
    expect(ended).toEqual({ code: 0, signal: null });
    expect(existsSync(join(data, 'plants.db'))).toBe(true);
  });

  it('serves HTTPS from a certificate and key behind links as certbot keeps them, granted reading their directories', async () => {
    const letsencrypt = mkdtempSync(join(temporary, 'deno-tls-'));
    const authority = createTestAuthority(letsencrypt);
    const pair = authority.leaf('localhost');
    // live/ holds links into archive/, as certbot lays them out.
    mkdirSync(join(letsencrypt, 'archive'));
    mkdirSync(join(letsencrypt, 'live'));
    for (const [file, from] of [
      ['cert.pem', pair.certPath],
      ['key.pem', pair.keyPath],
    ] as const) {
      writeFileSync(join(letsencrypt, 'archive', file), readFileSync(from));
      symlinkSync(`../archive/${file}`, join(letsencrypt, 'live', file));
    }
    const server = await npm('Node 24', root, ['run', 'start:deno'], {
      PLANT_STORE_DATABASE_URL: 'memory:',
      PLANT_STORE_TLS_CERT: join(letsencrypt, 'live/cert.pem'),
      PLANT_STORE_TLS_KEY: join(letsencrypt, 'live/key.pem'),
    });
    expect(server.url).toMatch(/^https:\/\//);
    const created = await send(server.url.replace('127.0.0.1', 'localhost'), {
      path: '/plants',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":1,"name":"Monstera"}',
      ca: authority.ca,
    });
    expect([created.status, created.body]).toEqual([200, '{"name":"Monstera"}']);
    const ended = await server.interrupt();
    expect(failureLines(server.output())).toEqual([]);
    expect(ended).toEqual({ code: 0, signal: null });
  });
});
