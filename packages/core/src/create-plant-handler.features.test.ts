import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPlantHandler } from './create-plant-handler.ts';
import type { ErrorContext, PlantHandlerOptions } from './plant-handler-options.ts';
import { CORS_EXPOSED_HEADERS } from './features/cors/cors-policy.ts';
import { JSON_HEADERS, SHUTTING_DOWN } from './exchange/error-response.ts';
import type { BodyResult, PlantRequest } from './exchange/http-types.ts';
import type { InsertResult, PlantStore } from './domain/plant-store.ts';
import { staticTokens } from './exchange/static-tokens.ts';

const TOKEN = 'feature-token';
const APP = 'https://app.example.com';
const encoder = new TextEncoder();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const OK = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

function store(ready?: PlantStore['ready']): PlantStore {
  const plants = new Map<bigint, { name: string }>();
  const base: PlantStore = {
    insertIfAbsent(id, plant): InsertResult {
      const existing = plants.get(id);
      if (existing) return { status: 'exists', existing };
      plants.set(id, plant);
      return { status: 'inserted' };
    },
    get: async (id) => plants.get(id),
  };
  return ready === undefined ? base : { ...base, ready };
}

interface Plain {
  method?: string;
  url?: string;
  headers?: Record<string, string>;
  body?: string;
  draining?: boolean;
}

function request({ method = 'GET', url = '/plants', headers = {}, body = '', draining = false }: Plain): PlantRequest {
  return {
    method,
    url,
    draining,
    header: (name) => headers[name],
    readBody: async (): Promise<BodyResult> => ({ ok: true, bytes: encoder.encode(body) }),
  };
}

const page = { html: '<!doctype html>', files: { 'app.js': { contentType: 'text/javascript', body: 'void 0' } } };

function setup(options: Partial<PlantHandlerOptions> = {}) {
  const contexts: ErrorContext[] = [];
  const handle = createPlantHandler({
    store: store(),
    authenticate: staticTokens([TOKEN]),
    onError: (_error, context) => contexts.push(context),
    cors: { origins: [APP], credentials: true },
    requestId: true,
    health: true,
    docs: page,
    ...options,
  });
  return { handle, contexts };
}

function code(body: string): number {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(parsed)).toEqual(['error', 'message']);
  return parsed['error'] as number;
}

describe('createPlantHandler without the opt-in features', () => {
  it('answers as before: OPTIONS 405, feature paths unmatched, the shared headers untouched', async () => {
    const handle = createPlantHandler({ store: store(), authenticate: staticTokens([TOKEN]) });
    const preflight = await handle(request({ method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'POST', 'x-request-id': 'abc' } }));
    expect([preflight.status, code(preflight.body), preflight.headers]).toEqual([405, 1201, { ...JSON_HEADERS, allow: 'POST' }]);
    for (const url of ['/healthz', '/readyz', '/docs', '/docs/app.js']) expect((await handle(request({ url }))).unmatched, url).toBe(true);
    const created = await handle(request({ method: 'POST', headers: { ...OK, origin: APP }, body: '{"id":1,"name":"n"}' }));
    expect(created.headers).toBe(JSON_HEADERS);
    expect(await handle(request({ method: 'POST', draining: true }))).toBe(SHUTTING_DOWN);
  });
});

describe('createPlantHandler with cors', () => {
  it('answers preflights on every route it serves, with the route’s method', async () => {
    const { handle } = setup();
    for (const [url, method] of [
      ['/plants', 'POST'],
      ['/openapi.json', 'GET'],
      ['/healthz', 'GET'],
      ['/readyz', 'GET'],
      ['/docs', 'GET'],
      ['/docs/app.js', 'GET'],
    ] as const) {
      const response = await handle(request({ method: 'OPTIONS', url, headers: { origin: APP, 'access-control-request-method': 'POST' } }));
      expect([url, response.status, response.body]).toEqual([url, 200, '']);
      expect(response.headers['access-control-allow-methods']).toBe(method);
      expect(response.headers['access-control-allow-origin']).toBe(APP);
      expect(response.headers['access-control-expose-headers']).toBeUndefined();
      expect(response.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('answers a preflight while draining (the request that follows gets the 503), and not on unknown paths', async () => {
    const { handle } = setup();
    const preflight = await handle(request({ method: 'OPTIONS', draining: true, headers: { origin: APP, 'access-control-request-method': 'POST' } }));
    expect(preflight.status).toBe(200);
    const drained = await handle(request({ method: 'POST', draining: true, headers: { ...OK, origin: APP } }));
    expect([drained.status, code(drained.body), drained.headers['access-control-allow-origin']]).toEqual([503, 1501, APP]);
    for (const url of ['/nowhere', '/docs/missing.js']) {
      const response = await handle(request({ method: 'OPTIONS', url, headers: { origin: APP, 'access-control-request-method': 'GET' } }));
      expect([response.status, code(response.body)]).toEqual([404, 1200]);
    }
  });

  it('treats OPTIONS without Origin or Access-Control-Request-Method as any other method: 405', async () => {
    const { handle } = setup();
    for (const headers of [{ origin: APP }, { 'access-control-request-method': 'POST' }]) {
      const response = await handle(request({ method: 'OPTIONS', headers }));
      expect([response.status, code(response.body), response.headers['allow']]).toEqual([405, 1201, 'POST']);
    }
  });

  it('puts the CORS headers on every answer to an allowed origin, whatever its status, and on none to another', async () => {
    const { handle } = setup({ store: { insertIfAbsent: () => Promise.reject(new Error('down')), get: async () => undefined } });
    const origin = fc.constantFrom(APP, 'https://evil.example', undefined);
    await fc.assert(
      fc.asyncProperty(
        origin,
        fc.constantFrom('GET', 'POST', 'PUT', 'OPTIONS'),
        fc.constantFrom('/plants', '/openapi.json', '/healthz', '/readyz', '/docs', '/docs/app.js', '/docs/x', '/x'),
        fc.constantFrom({}, OK, { authorization: 'Bearer nope' }),
        async (from, method, url, auth) => {
          const headers: Record<string, string> = { ...auth };
          if (from !== undefined) headers['origin'] = from;
          const response = await handle(request({ method, url, headers, body: '{"id":1,"name":"n"}' }));
          if (response.status !== 200) code(response.body);
          expect(response.headers['vary']).toBe('Origin');
          if (from === APP) {
            expect(response.headers['access-control-allow-origin']).toBe(APP);
            expect(response.headers['access-control-allow-credentials']).toBe('true');
            expect(response.headers['access-control-expose-headers']).toBe(CORS_EXPOSED_HEADERS);
          } else {
            expect(response.headers['access-control-allow-origin']).toBeUndefined();
            expect(response.headers['access-control-allow-credentials']).toBeUndefined();
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses invalid cors options when the handler is built', () => {
    expect(() => setup({ cors: { origins: '*', credentials: true } })).toThrow(/cannot be combined/);
    expect(() => setup({ cors: { origins: ['https://app.example.com/'] } })).toThrow(/no path/);
  });
});

describe('createPlantHandler with requestId', () => {
  it('echoes a sane id, makes one otherwise, on every answer, and hands it to onError', async () => {
    const { handle, contexts } = setup({
      authenticate: () => {
        throw new Error('verifier down');
      },
    });
    const failed = await handle(request({ method: 'POST', headers: { ...OK, 'x-request-id': 'trace-1' }, body: '{"id":1,"name":"n"}' }));
    expect([failed.status, failed.headers['x-request-id']]).toEqual([500, 'trace-1']);
    expect(contexts.map((context) => [context.kind, context.requestId])).toEqual([['internal', 'trace-1']]);
    const made = await handle(request({ url: '/x', headers: { 'x-request-id': 'bad id' } }));
    expect(made.headers['x-request-id']).toMatch(UUID);
    expect(made.unmatched).toBe(true);
  });

  it('leaves out requestId in onError without the option', async () => {
    const { handle, contexts } = setup({ requestId: false, store: { insertIfAbsent: () => Promise.reject(new Error('x')), get: async () => undefined } });
    const response = await handle(request({ method: 'POST', headers: { ...OK, 'x-request-id': 'trace-1' }, body: '{"id":1,"name":"n"}' }));
    expect([response.status, response.headers['x-request-id']]).toEqual([503, undefined]);
    expect(contexts).toHaveLength(1);
    expect('requestId' in contexts[0]!).toBe(false);
  });

  it('never changes the shared answers it adds headers to', async () => {
    const { handle } = setup({ cors: undefined });
    const before = JSON.stringify(SHUTTING_DOWN);
    const response = await handle(request({ method: 'POST', draining: true }));
    expect(response).not.toBe(SHUTTING_DOWN);
    expect(JSON.stringify(SHUTTING_DOWN)).toBe(before);
    expect(JSON_HEADERS).toEqual({ 'content-type': 'application/json' });
  });
});

describe('createPlantHandler with health', () => {
  it('answers /healthz 200 while serving and while draining, without credentials', async () => {
    const { handle } = setup({ cors: undefined, requestId: false });
    for (const draining of [false, true]) {
      const response = await handle(request({ url: '/healthz', draining }));
      expect([response.status, response.body, response.headers['cache-control']]).toEqual([200, '{"status":"ok"}', 'no-store']);
    }
  });

  it('answers /readyz 200 when the store is ready, 503 (1501) while draining or when it fails or is late', async () => {
    const cause = new Error('db down');
    const cases: [PlantStore['ready'] | undefined, boolean, number, string?][] = [
      [undefined, false, 200],
      [() => {}, false, 200],
      [async () => {}, true, 503, 'the server is shutting down; retry on a new connection'],
      [() => Promise.reject(cause), false, 503, 'the plant store is not available'],
      [() => new Promise(() => {}), false, 503, 'the plant store did not answer in time'],
    ];
    for (const [ready, draining, status, message] of cases) {
      const { handle, contexts } = setup({ store: store(ready), storeTimeoutMs: 20, requestId: false, cors: undefined });
      const response = await handle(request({ url: '/readyz', draining }));
      expect(response.status).toBe(status);
      if (status === 200) expect(response.body).toBe('{"status":"ready"}');
      else expect(JSON.parse(response.body)).toEqual({ error: 1501, message });
      if (message?.startsWith('the plant store')) {
        expect(response.headers['cache-control']).toBe('no-store');
        expect(contexts.map((context) => context.kind)).toEqual(['storage-unavailable']);
      }
    }
  });

  it('allows only GET and HEAD on the health routes, and serves them under basePath', async () => {
    const { handle } = setup({ basePath: '/v1' });
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await handle(request({ method, url: '/v1/healthz' }));
      expect([response.status, code(response.body), response.headers['allow']]).toEqual([405, 1201, 'GET, HEAD']);
    }
    expect((await handle(request({ url: '/v1/readyz' }))).status).toBe(200);
    expect((await handle(request({ url: '/healthz' }))).unmatched).toBe(true);
  });
});

describe('createPlantHandler with docs', () => {
  it('serves the page and files, 404 (1200) for an unknown file even when mounted, 503 while draining', async () => {
    const { handle } = setup({ basePath: '/api', cors: undefined, requestId: false });
    const pageResponse = await handle(request({ url: '/api/docs' }));
    expect([pageResponse.status, pageResponse.body, pageResponse.headers['content-type']]).toEqual([200, page.html, 'text/html; charset=utf-8']);
    const file = await handle(request({ url: '/api/docs/app.js?v=1' }));
    expect([file.status, file.body, file.headers['content-type']]).toEqual([200, 'void 0', 'text/javascript']);
    for (const url of ['/api/docs/', '/api/docs/missing', '/api/docs/__proto__', '/api/docs/constructor', '/api/docs/app.js/']) {
      const missing = await handle(request({ url }));
      expect([url, missing.status, code(missing.body), missing.unmatched]).toEqual([url, 404, 1200, undefined]);
    }
    expect((await handle(request({ url: '/api/docs', draining: true }))).status).toBe(503);
  });

  it('hands on the shared bytes of a docs answer with the headers it adds: one copy for every answer', async () => {
    const { handle } = setup({ requestId: true, cors: undefined });
    const [first, second] = [await handle(request({ url: '/docs/app.js' })), await handle(request({ url: '/docs/app.js' }))];
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(new TextDecoder().decode(first.bytes)).toBe('void 0');
    expect(second.bytes).toBe(first.bytes);
  });

  it('lists the health and docs routes in the document it serves, and only then', async () => {
    const paths = async (options: Partial<PlantHandlerOptions>) =>
      Object.keys((JSON.parse((await setup(options).handle(request({ url: '/openapi.json' }))).body) as { paths: object }).paths);
    expect(await paths({})).toEqual(['/plants', '/openapi.json', '/healthz', '/readyz', '/docs', '/docs/{file}']);
    expect(await paths({ health: false, docs: undefined })).toEqual(['/plants', '/openapi.json']);
  });
});

describe('createPlantHandler and HEAD', () => {
  // The HTTP server sends a HEAD answer's head alone, so the handler gives GET's answer whole:
  // its Content-Length is then the one GET would send.
  it('answers HEAD wherever GET is answered, with GET’s answer, while serving and while draining', async () => {
    const { handle } = setup({ requestId: false });
    for (const draining of [false, true]) {
      for (const url of ['/openapi.json', '/healthz', '/readyz', '/docs', '/docs/app.js', '/docs/missing.js']) {
        const get = await handle(request({ url, draining, headers: { origin: APP } }));
        const head = await handle(request({ method: 'HEAD', url, draining, headers: { origin: APP } }));
        expect({ url, draining, head }).toEqual({ url, draining, head: get });
      }
    }
  });

  it('answers HEAD /plants 405 with Allow: POST, as any other method but POST', async () => {
    const { handle } = setup({ requestId: false });
    const response = await handle(request({ method: 'HEAD', headers: OK }));
    expect([response.status, code(response.body), response.headers['allow']]).toEqual([405, 1201, 'POST']);
  });
});

describe('createPlantHandler and its document', () => {
  type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { responses: Record<string, unknown> } };
  const documentOf = async (options: Partial<PlantHandlerOptions>) =>
    JSON.parse((await setup(options).handle(request({ url: '/openapi.json' }))).body) as Document;

  it('declares CORS and the server’s own refusals only where the mount has them', async () => {
    const mounted = await documentOf({ cors: undefined });
    for (const name of ['Forbidden', 'RequestTimeout', 'RequestHeaderFieldsTooLarge']) expect(mounted.components.responses[name], name).toBeUndefined();
    expect(JSON.stringify(mounted)).not.toMatch(/\b(1005|1102|1402|1403)\b/);

    const standalone = await documentOf({ protocolErrors: ['malformed-request', 'request-timeout', 'headers-too-large'] });
    for (const name of ['Forbidden', 'RequestTimeout', 'RequestHeaderFieldsTooLarge']) expect(standalone.components.responses[name], name).toBeDefined();
    expect(Object.keys(standalone.paths['/plants']!['post']!.responses)).toContain('408');
  });

  it('declares 503 on every GET route that answers it while draining', async () => {
    const { paths } = await documentOf({});
    for (const path of ['/openapi.json', '/readyz', '/docs', '/docs/{file}']) expect(Object.keys(paths[path]!['get']!.responses), path).toContain('503');
    expect(Object.keys(paths['/healthz']!['get']!.responses)).toEqual(['200']);
  });

  it('refuses a protocolErrors option that is not a list of protocol error kinds', () => {
    for (const protocolErrors of ['request-timeout', ['timeout'], [1402]]) {
      expect(() => setup({ protocolErrors: protocolErrors as never }), JSON.stringify(protocolErrors)).toThrow(TypeError);
    }
  });
});

describe('createPlantHandler with every feature on', () => {
  it('never answers 5xx to arbitrary requests, every non-200 is the Error body, every answer has an id', async () => {
    const { handle } = setup();
    const header = (values: string[]) => fc.option(fc.oneof(fc.constantFrom(...values), fc.string({ unit: 'binary', maxLength: 30 })), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method: fc.oneof(fc.constantFrom('GET', 'POST', 'OPTIONS', 'HEAD'), fc.string({ maxLength: 6 })),
          url: fc.oneof(fc.constantFrom('/plants', '/healthz', '/readyz', '/docs', '/docs/app.js', '/docs/', '/openapi.json'), fc.string({ maxLength: 20 })),
          origin: header([APP, 'null', 'https://evil.example']),
          acrm: header(['POST', 'GET']),
          id: header(['abc', '']),
          body: fc.string({ maxLength: 40 }),
        }),
        async ({ method, url, origin, acrm, id, body }) => {
          const headers: Record<string, string> = { ...OK };
          if (origin !== undefined) headers['origin'] = origin;
          if (acrm !== undefined) headers['access-control-request-method'] = acrm;
          if (id !== undefined) headers['x-request-id'] = id;
          const response = await handle(request({ method, url, headers, body }));
          expect(response.status).toBeLessThan(500);
          if (response.status !== 200) code(response.body);
          expect(response.headers['x-request-id']).toBeDefined();
          if (id === 'abc') expect(response.headers['x-request-id']).toBe('abc');
        },
      ),
      { numRuns: 2000 },
    );
  });
});
