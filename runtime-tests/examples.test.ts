import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@plant-store/testing';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_LINES, runtime, spawnListening } from './runtimes.ts';

const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const TOKEN = 'example-token';
const closers: (() => Promise<unknown>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

const LIMIT = 1024 * 1024;
const TOO_LARGE = '{"error":1400,"message":"body: larger than the limit of 1048576 bytes"}';

/**
 * What every example must do, served under `base` (`''` or a mount path such
 * as `/api`): create with an exact id, replay, refuse a bad token, refuse a
 * body one byte over the limit whether its length is declared or streamed
 * (so the host did not read it first), say where it lives in its OpenAPI
 * document, and leave other paths to the host.
 */
async function exercise(baseUrl: string, base: string, unmatched: { path: string; status: number }) {
  const plantsPath = `${base}/plants`;
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const body = '{"id":9007199254740993,"name":"Example"}';
  const created = await send(baseUrl, { path: plantsPath, headers, body });
  expect([created.status, created.body]).toEqual([200, '{"name":"Example"}']);
  expect((await send(baseUrl, { path: plantsPath, headers, body })).status).toBe(200);
  expect((await send(baseUrl, { path: plantsPath, headers, body: '{"id":9007199254740992,"name":"Other"}' })).status).toBe(200);
  expect((await send(baseUrl, { path: plantsPath, headers, body: '{"id":9007199254740993,"name":"Changed"}' })).status).toBe(409);
  expect((await send(baseUrl, { path: plantsPath, headers: { ...headers, authorization: 'Bearer nope' }, body })).status).toBe(401);
  const oversized = new Uint8Array(LIMIT + 1).fill(0x20);
  for (const chunked of [false, true]) {
    const refused = await send(baseUrl, { path: plantsPath, headers, body: oversized, chunked });
    expect([refused.status, refused.headers['content-type'], refused.body], chunked ? 'streamed' : 'declared').toEqual([413, 'application/json', TOO_LARGE]);
  }
  const document = await send(baseUrl, { method: 'GET', path: `${base}/openapi.json` });
  expect(document.status).toBe(200);
  expect((JSON.parse(document.body) as { servers: unknown }).servers).toEqual([{ url: base || '/' }]);
  expect((await send(baseUrl, { method: 'GET', path: unmatched.path })).status).toBe(unmatched.status);
}

/**
 * Paths under /api that are no route of Plant Store's get its 404 (1200), as on every other host: not decoded
 * (Hono's mount() and h3's app.mount() took `/api/%70lants` for `/api/plants`), nor answered by the host (h3's
 * app.mount() gave `/api//plants` its own 404 body).
 */
async function noDecodedPaths(baseUrl: string) {
  for (const path of ['/api/%70lants', '/api//plants']) {
    const answer = await send(baseUrl, {
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":77,"name":"decoded"}',
    });
    expect(`${path} ${answer.status} ${answer.body}`).toBe(`${path} 404 {"error":1200,"message":"no such route"}`);
  }
}

async function start(name: string, binary: string, args: string[]) {
  const server = await spawnListening(name, binary, args, { PLANT_TOKEN: TOKEN }, join(examples, name));
  closers.push(() => server.close());
  return server;
}

describe('examples', () => {
  // Each Node example on every Node line the support policy names.
  describe.each(NODE_LINES.map((line) => [line, runtime(line).binary] as const))('on %s', (_line, node) => {
    it('node-http: mounted in node:http, other paths reach the host', async () => {
      const server = await start('node-http', node, ['server.mjs']);
      await exercise(server.baseUrl, '', { path: '/anything', status: 200 });
    });

    it('express: mounted under /api', async () => {
      const server = await start('express', node, ['server.mjs']);
      await exercise(server.baseUrl, '/api', { path: '/', status: 200 });
    });

    it('fastify: an onRequest hook, before Fastify reads the body, under /api', async () => {
      const server = await start('fastify', node, ['server.mjs']);
      await exercise(server.baseUrl, '/api', { path: '/', status: 200 });
      expect((await send(server.baseUrl, { method: 'GET', path: '/api/other' })).status, "Fastify's own 404").toBe(404);
    });

    it('fastify: through @fastify/middie, with mountPath, under /api', async () => {
      const server = await start('fastify', node, ['middie.mjs']);
      await exercise(server.baseUrl, '/api', { path: '/', status: 200 });
    });

    it('koa: a middleware that lets the Node handler answer on ctx.res, under /api', async () => {
      const server = await start('koa', node, ['server.mjs']);
      await exercise(server.baseUrl, '/api', { path: '/', status: 200 });
      expect((await send(server.baseUrl, { method: 'GET', path: '/api/other' })).body, 'reaches the host').toBe('the rest of your app\n');
    });

    it('hono: the Fetch handler given the request as it came, on @hono/node-server, under /api', async () => {
      const server = await start('hono', node, ['server.mjs']);
      await exercise(server.baseUrl, '/api', { path: '/', status: 200 });
      await noDecodedPaths(server.baseUrl);
    });

    it('h3: the Fetch handler given the request as it came, on srvx, under /api', async () => {
      const server = await start('h3', node, ['server.mjs']);
      await exercise(server.baseUrl, '/api', { path: '/', status: 200 });
      await noDecodedPaths(server.baseUrl);
    });
  });

  it('bun: Bun.serve with the Fetch handler', async () => {
    const server = await start('bun', runtime('Bun').binary, ['server.ts']);
    await exercise(server.baseUrl, '', { path: '/other', status: 404 });
  });

  it('deno: Deno.serve with the Fetch handler and narrow permissions', async () => {
    const server = await start('deno', runtime('Deno').binary, ['run', '--allow-net=127.0.0.1', '--allow-env=PORT,PLANT_TOKEN', 'main.ts']);
    await exercise(server.baseUrl, '', { path: '/other', status: 404 });
  });

  // As a careful deployment would: no token of their own to fall back on.
  const node = (name: string, file: string) => ({ name, file, binary: runtime('Node 26').binary, args: [file] });
  it.each([
    node('node-http', 'server.mjs'),
    node('express', 'server.mjs'),
    node('fastify', 'server.mjs'),
    node('fastify', 'middie.mjs'),
    node('koa', 'server.mjs'),
    node('hono', 'server.mjs'),
    node('h3', 'server.mjs'),
    { name: 'bun', file: 'server.ts', binary: runtime('Bun').binary, args: ['server.ts'] },
    { name: 'deno', file: 'main.ts', binary: runtime('Deno').binary, args: ['run', '--allow-net=127.0.0.1', '--allow-env=PORT,PLANT_TOKEN', 'main.ts'] },
  ])('$name/$file: stops at start without PLANT_TOKEN', async ({ name, binary, args }) => {
    const refused = spawnListening(name, binary, args, {}, join(examples, name));
    await expect(refused).rejects.toThrow(
      /exited with [1-9]\d* before listening:[\s\S]*staticTokens: token 0 is empty; is the variable that should hold it set\?/,
    );
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
    await exercise(url.origin, '', { path: '/other', status: 404 });
  });
});
