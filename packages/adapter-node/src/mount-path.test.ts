import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as core from '@plant-store/core';
import { send } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeHandler, type NodeHandlerOptions } from './create-node-handler.ts';

// The real core, watched, to see exactly which options reach it.
vi.mock('@plant-store/core', async (importOriginal) => {
  const original = await importOriginal<typeof core>();
  return { ...original, createPlantResponder: vi.fn(original.createPlantResponder) };
});

const TOKEN = 'mount-token';
const options = (extra: Partial<NodeHandlerOptions> = {}): NodeHandlerOptions => ({
  store: createMemoryStore(),
  authenticate: core.staticTokens([TOKEN]),
  ...extra,
});

const running: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  vi.mocked(core.createPlantResponder).mockClear();
});

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  running.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A host that strips `/api` from `req.url` and keeps it nowhere, as `@fastify/middie` does. */
function strippingHost(handler: ReturnType<typeof createNodeHandler>): RequestListener {
  return (req, res) => {
    if (req.url !== undefined && /^\/api(?=[/?]|$)/.test(req.url)) req.url = req.url.slice('/api'.length) || '/';
    handler(req, res, () => res.writeHead(418).end('host'));
  };
}

async function servers(url: string, path = '/api/openapi.json'): Promise<unknown> {
  const answer = await send(url, { method: 'GET', path });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { servers: unknown }).servers;
}

describe('the mountPath option of createNodeHandler', () => {
  it('names the path a stripping host mounted it at, in the OpenAPI document, and routes as before', async () => {
    const url = await listen(strippingHost(createNodeHandler(options({ mountPath: '/api' }))));
    expect(await servers(url)).toEqual([{ url: '/api' }]);
    const created = await send(url, {
      path: '/api/plants',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":9007199254740993,"name":"n"}',
    });
    expect([created.status, created.body]).toEqual([200, '{"name":"n"}']);
    expect((await send(url, { method: 'GET', path: '/api/other' })).body).toBe('host');
  });

  it('comes before basePath, as the mount point does', async () => {
    const url = await listen(strippingHost(createNodeHandler(options({ mountPath: '/api', basePath: '/v1' }))));
    expect(await servers(url, '/api/v1/openapi.json')).toEqual([{ url: '/api/v1' }]);
  });

  it('without it, a stripping host leaves the document saying "/"', async () => {
    const url = await listen(strippingHost(createNodeHandler(options())));
    expect(await servers(url)).toEqual([{ url: '/' }]);
  });

  it('is not needed in Express, whose req.baseUrl says where it is mounted, and wins over it when given', async () => {
    const app = express();
    app.use('/api', createNodeHandler(options()));
    app.use('/outer', createNodeHandler(options({ mountPath: '/proxied/outer' })));
    const url = await listen(app);
    expect(await servers(url)).toEqual([{ url: '/api' }]);
    expect(await servers(url, '/outer/openapi.json')).toEqual([{ url: '/proxied/outer' }]);
  });

  it('drops a trailing slash, and takes "" or "/" for the root', async () => {
    const url = await listen(strippingHost(createNodeHandler(options({ mountPath: '/api/' }))));
    expect(await servers(url)).toEqual([{ url: '/api' }]);
    for (const root of ['', '/']) {
      const atRoot = await listen(createNodeHandler(options({ mountPath: root })));
      expect(await servers(atRoot, '/openapi.json')).toEqual([{ url: '/' }]);
    }
  });

  it('refuses at construction a path without a leading slash or with a query', () => {
    for (const mountPath of ['api', '/api?x=1', '/api#top']) {
      expect(() => createNodeHandler(options({ mountPath }))).toThrow(new TypeError('createNodeHandler: `mountPath` must start with "/" and hold no query'));
    }
  });

  it('hands the core every other option unchanged, including ones this adapter does not know', () => {
    const given = { ...options({ mountPath: '/api', basePath: '/v1', maxBodyBytes: 10 }), someFutureOption: { on: true } };
    createNodeHandler(given);
    const { mountPath: _, ...expected } = given;
    // The core is also told whose options they are, for its errors to name.
    expect(vi.mocked(core.createPlantResponder).mock.calls).toEqual([[expected, 'createNodeHandler']]);
  });
});
