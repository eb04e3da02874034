import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@plant-store/testing';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import { runtime, spawnListening } from './runtimes.ts';

const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const TOKEN = 'example-token';
const closers: (() => Promise<unknown>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

/** What every example must do: create, replay, refuse a bad token, leave other paths to the host. */
async function exercise(baseUrl: string, plantsPath: string, unmatched: { path: string; status: number }) {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const body = '{"id":9007199254740993,"name":"Example"}';
  const created = await send(baseUrl, { path: plantsPath, headers, body });
  expect([created.status, created.body]).toEqual([200, '{"name":"Example"}']);
  expect((await send(baseUrl, { path: plantsPath, headers, body })).status).toBe(200);
  expect((await send(baseUrl, { path: plantsPath, headers, body: '{"id":9007199254740992,"name":"Other"}' })).status).toBe(200);
  expect((await send(baseUrl, { path: plantsPath, headers: { ...headers, authorization: 'Bearer nope' }, body })).status).toBe(401);
  expect((await send(baseUrl, { method: 'GET', path: unmatched.path })).status).toBe(unmatched.status);
}

async function start(name: string, binary: string, args: string[]) {
  const server = await spawnListening(name, binary, args, { PLANT_TOKEN: TOKEN }, join(examples, name));
  closers.push(() => server.close());
  return server;
}

describe('examples', () => {
  it('node-http: mounted in node:http, other paths reach the host', async () => {
    const server = await start('node-http', process.execPath, ['server.mjs']);
    await exercise(server.baseUrl, '/plants', { path: '/anything', status: 200 });
  });

  it('express: mounted under /api', async () => {
    const server = await start('express', process.execPath, ['server.mjs']);
    await exercise(server.baseUrl, '/api/plants', { path: '/', status: 200 });
  });

  it('bun: Bun.serve with the Fetch handler', async () => {
    const server = await start('bun', runtime('Bun').binary, ['server.ts']);
    await exercise(server.baseUrl, '/plants', { path: '/other', status: 404 });
  });

  it('deno: Deno.serve with the Fetch handler and narrow permissions', async () => {
    const server = await start('deno', runtime('Deno').binary, ['run', '--allow-net=127.0.0.1', '--allow-env=PORT,PLANT_TOKEN', 'main.ts']);
    await exercise(server.baseUrl, '/plants', { path: '/other', status: 404 });
  });

  it('cloudflare-worker: bundled as Wrangler would, run on workerd', async () => {
    // Inside the project: workerd refuses module paths that climb out of the working directory.
    const outdir = fileURLToPath(new URL('./dist/', import.meta.url));
    await build({
      entryPoints: [join(examples, 'cloudflare-worker/src/index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      outfile: join(outdir, 'example-worker.js'),
      logLevel: 'silent',
    });
    const miniflare = new Miniflare({
      modules: true,
      scriptPath: join(outdir, 'example-worker.js'),
      compatibilityDate: '2026-07-01',
      bindings: { PLANT_TOKEN: TOKEN },
      d1Databases: ['DB'],
      host: '127.0.0.1',
      port: 0,
    });
    closers.push(() => miniflare.dispose());
    const url = await miniflare.ready;
    await exercise(url.origin, '/plants', { path: '/other', status: 404 });
  });
});
