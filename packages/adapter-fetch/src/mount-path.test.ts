import * as core from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from './create-fetch-handler.ts';

// The real core, watched, to see exactly which options reach it.
vi.mock('@plant-store/core', async (importOriginal) => {
  const original = await importOriginal<typeof core>();
  return { ...original, createPlantResponder: vi.fn(original.createPlantResponder) };
});
afterEach(() => {
  vi.mocked(core.createPlantResponder).mockClear();
});

const TOKEN = 'mount-token';
const options = (extra: Partial<FetchHandlerOptions> = {}): FetchHandlerOptions => ({
  store: createMemoryStore(),
  authenticate: core.staticTokens([TOKEN]),
  ...extra,
});

/**
 * Calls the handler as Hono's `mount()` and h3's `app.mount()` do: with a new
 * Request whose URL has lost the mount path, the body passed along unread.
 */
function mountedAtApi(handler: FetchHandler): (path: string, init?: RequestInit) => Promise<Response> {
  return (path, init) => {
    const original = new Request(`http://localhost/api${path}`, init);
    const url = new URL(original.url);
    url.pathname = url.pathname.slice('/api'.length) || '/';
    return handler(new Request(url, original));
  };
}

async function servers(response: Response): Promise<unknown> {
  expect(response.status).toBe(200);
  return ((await response.json()) as { servers: unknown }).servers;
}

describe('the mountPath option of createFetchHandler', () => {
  it('names the path a stripping host mounted it at, in the OpenAPI document, and routes as before', async () => {
    const call = mountedAtApi(createFetchHandler(options({ mountPath: '/api' })));
    expect(await servers(await call('/openapi.json'))).toEqual([{ url: '/api' }]);
    const created = await call('/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":9007199254740993,"name":"n"}',
    });
    expect([created.status, await created.text()]).toEqual([200, '{"name":"n"}']);
  });

  it('comes before basePath, as the mount point does', async () => {
    const call = mountedAtApi(createFetchHandler(options({ mountPath: '/api', basePath: '/v1' })));
    expect(await servers(await call('/v1/openapi.json'))).toEqual([{ url: '/api/v1' }]);
  });

  it('without it, the document says "/", since a Fetch handler cannot see what was stripped', async () => {
    const call = mountedAtApi(createFetchHandler(options()));
    expect(await servers(await call('/openapi.json'))).toEqual([{ url: '/' }]);
  });

  it('drops a trailing slash, and takes "" or "/" for the root', async () => {
    expect(await servers(await mountedAtApi(createFetchHandler(options({ mountPath: '/api/' })))('/openapi.json'))).toEqual([{ url: '/api' }]);
    for (const mountPath of ['', '/']) {
      const handler = createFetchHandler(options({ mountPath }));
      expect(await servers(await handler(new Request('http://localhost/openapi.json')))).toEqual([{ url: '/' }]);
    }
  });

  it('refuses at construction a path without a leading slash or with a query', () => {
    for (const mountPath of ['api', '/api?x=1', '/api#top']) {
      expect(() => createFetchHandler(options({ mountPath }))).toThrow(new TypeError('createFetchHandler: `mountPath` must start with "/" and hold no query'));
    }
  });

  it('hands the core every other option unchanged, including ones this adapter does not know', () => {
    const given = { ...options({ mountPath: '/api', basePath: '/v1', maxBodyBytes: 10 }), someFutureOption: { on: true } };
    createFetchHandler(given);
    const { mountPath: _, ...expected } = given;
    // The core is also told whose options they are, for its errors to name.
    expect(vi.mocked(core.createPlantResponder).mock.calls).toEqual([[expected, 'createFetchHandler']]);
  });
});
