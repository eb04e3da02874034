// Runs under vitest on Node.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@plant-store/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/bin/node.js', import.meta.url));
/** The servers' working directory, where the default store (SQLite, on a Node that has it) keeps its file. */
const cwd = mkdtempSync(join(tmpdir(), 'plant-store-cli-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [CLI], { cwd, env: { PATH: process.env['PATH'] ?? '', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 10 s: ${out}`)), 10_000);
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, url, stdout: () => out, exited };
}

describe('standalone server (plant-store, dist/bin/node.js)', () => {
  it('without PLANT_STORE_TOKENS makes a token, prints it once, and accepts only it', async () => {
    const server = await start({});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const token = /the only accepted token is (\S+)/.exec(server.stdout())?.[1];
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    const body = '{"id":1,"name":"Fern"}';
    const headers = { 'content-type': 'application/json' };
    expect((await send(server.url, { path: '/plants', headers: { ...headers, authorization: `Bearer ${token}` }, body })).status).toBe(200);
    expect((await send(server.url, { path: '/plants', headers: { ...headers, authorization: 'Bearer other' }, body })).status).toBe(401);
    expect(server.stdout().split(token!).length - 1).toBe(1);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('writes one access-log line per request, without the query, and none when off', async () => {
    const server = await start({ PLANT_STORE_TOKENS: 'a-token' });
    await send(server.url, { method: 'GET', path: '/plants?secret=1' });
    await send(server.url, { path: '/nowhere' });
    // Read once the process has exited, when all it wrote has arrived.
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => /^[A-Z]+ \//.test(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/plants 405 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^POST \/nowhere 404 \d+\.\dms$/);

    const quiet = await start({ PLANT_STORE_TOKENS: 'a-token', PLANT_STORE_ACCESS_LOG: 'off' });
    await send(quiet.url, { method: 'GET', path: '/plants' });
    quiet.child.kill('SIGINT');
    expect(await quiet.exited).toBe(0);
    expect(quiet.stdout()).not.toMatch(/^GET /m);
  });

  it('refuses to start with a token no client could send', async () => {
    const child = spawn(process.execPath, [CLI], { cwd, env: { PATH: process.env['PATH'] ?? '', PORT: '0', PLANT_STORE_TOKENS: 'bad token' }, stdio: 'pipe' });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
    expect(err).toContain('PLANT_STORE_TOKENS');
  });

  it('on SIGTERM finishes the request in flight with Connection: close, then exits 0', async () => {
    const server = await start({ PLANT_STORE_TOKENS: 'a-token' });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Half a body now, SIGTERM, the other half after: the request is in flight when the signal lands.
    const response = await send(server.url, {
      path: '/plants',
      headers: { authorization: 'Bearer a-token', 'content-type': 'application/json' },
      chunked: true,
      body: [
        '{"id":7,',
        async () => {
          await sleep(200);
          server.child.kill('SIGTERM');
          await sleep(300);
        },
        '"name":"late"}',
      ],
    });
    const answered = { status: response.status, connection: response.headers['connection'], body: response.body };
    expect(answered).toEqual({ status: 200, connection: 'close', body: '{"name":"late"}' });
    expect(await server.exited).toBe(0);
  });
});
