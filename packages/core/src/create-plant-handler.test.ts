import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPlantHandler } from './create-plant-handler.ts';
import type { PlantHandlerOptions } from './plant-handler-options.ts';
import type { BodyResult, PlantRequest } from './exchange/http-types.ts';
import type { InsertResult, PlantStore } from './domain/plant-store.ts';
import type { Plant } from './domain/schemas.ts';
import { staticTokens } from './exchange/static-tokens.ts';
import { invalidCreate, validCreate } from '@plant-store/testing';

const TOKEN = 'property-token';
const encoder = new TextEncoder();

/** The simplest correct store, kept apart from store-memory so the core's laws stand alone. */
function mapStore(): PlantStore & { readonly plants: Map<bigint, Plant> } {
  const plants = new Map<bigint, Plant>();
  return {
    plants,
    async insertIfAbsent(id, plant): Promise<InsertResult> {
      const existing = plants.get(id);
      if (existing) return { status: 'exists', existing };
      plants.set(id, { ...plant });
      return { status: 'inserted' };
    },
    async get(id) {
      return plants.get(id);
    },
  };
}

interface PlainRequest {
  method?: string;
  url?: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
}

function request({ method = 'POST', url = '/plants', headers = {}, body = '' }: PlainRequest): PlantRequest & { bodyReads: number } {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return {
    method,
    url,
    bodyReads: 0,
    header: (name) => headers[name],
    async readBody(maxBytes): Promise<BodyResult> {
      this.bodyReads++;
      return bytes.length > maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, bytes };
    },
  };
}

const validHeaders = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

function setup(options: Partial<PlantHandlerOptions> = {}) {
  const store = mapStore();
  const errors: unknown[] = [];
  const handle = createPlantHandler({ store, authenticate: staticTokens([TOKEN]), onError: (error) => errors.push(error), ...options });
  return { store, handle, errors };
}

function errorCode(body: string): number {
  const parsed = JSON.parse(body) as { error: number; message: string };
  expect(Object.keys(parsed).sort()).toEqual(['error', 'message']);
  return parsed.error;
}

describe('createPlantHandler laws', () => {
  it('(1) every valid NewPlant is answered 200 with exactly {name, tag?} and stored under its exact id', async () => {
    const { store, handle } = setup();
    await fc.assert(
      fc.asyncProperty(validCreate(), async (create) => {
        store.plants.clear();
        const response = await handle(request({ headers: validHeaders, body: create.body }));
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toBe('application/json');
        expect(response.body).toBe(create.expected);
        expect(store.plants.size).toBe(1);
        expect(store.plants.get(create.id)).toStrictEqual(create.tag === undefined ? { name: create.name } : { name: create.name, tag: create.tag });
      }),
      { numRuns: 2000 },
    );
  });

  it('(2) every JSON body that is not a valid NewPlant gets 400 with its code, and the store is unchanged', async () => {
    const { store, handle } = setup();
    await fc.assert(
      fc.asyncProperty(invalidCreate(), async ({ body, code }) => {
        const response = await handle(request({ headers: validHeaders, body }));
        expect(response.status).toBe(400);
        expect(errorCode(response.body)).toBe(code);
        expect(store.plants.size).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('(3) arbitrary bytes, methods, paths and headers never make it throw or answer 5xx', async () => {
    const { store, handle, errors } = setup({ maxBodyBytes: 256 });
    const header = (values: string[]) => fc.option(fc.oneof(fc.constantFrom(...values), fc.string({ unit: 'binary', maxLength: 40 })), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method: fc.oneof(fc.constantFrom('POST', 'GET', 'PUT', 'post', ''), fc.string({ maxLength: 8 })),
          url: fc.oneof(fc.constantFrom('/plants', '/plants?x', '/plants/', '/', '/openapi.json'), fc.string({ maxLength: 20 })),
          authorization: header([`Bearer ${TOKEN}`, 'Bearer', 'Basic x', `bearer ${TOKEN}`, `Bearer ${TOKEN}, Bearer x`]),
          contentType: header(['application/json', 'application/json; charset=utf-16', 'text/plain', 'application/json;;;']),
          body: fc.oneof(
            fc.uint8Array({ maxLength: 300 }),
            validCreate().map((c) => encoder.encode(c.body)),
            invalidCreate().map((c) => encoder.encode(c.body)),
          ),
        }),
        async ({ method, url, authorization, contentType, body }) => {
          const headers: Record<string, string> = {};
          if (authorization !== undefined) headers['authorization'] = authorization;
          if (contentType !== undefined) headers['content-type'] = contentType;
          const before = store.plants.size;
          const response = await handle(request({ method, url, headers, body }));
          expect(response.status).toBeLessThan(500);
          const parsed = JSON.parse(response.body) as Record<string, unknown>;
          if (response.status === 200) expect(typeof (url.startsWith('/openapi.json') ? parsed['openapi'] : parsed['name'])).toBe('string');
          else errorCode(response.body);
          if (response.status !== 200) expect(store.plants.size).toBe(before);
        },
      ),
      { numRuns: 3000 },
    );
    expect(errors).toEqual([]);
  });

  it('(4) any sequence of creates behaves like the reference model: replay 200, clash 409, nothing overwritten', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ id: fc.constantFrom(1n, 2n, 2n ** 62n, -(2n ** 63n)), name: fc.constantFrom('a', 'b'), tag: fc.constantFrom(undefined, 'x', '') }),
          {
            maxLength: 30,
          },
        ),
        async (creates) => {
          const { store, handle } = setup();
          const model = new Map<bigint, Plant>();
          for (const { id, name, tag } of creates) {
            const plant: Plant = tag === undefined ? { name } : { name, tag };
            const response = await handle(request({ headers: validHeaders, body: JSON.stringify({ id: 0, ...plant }).replace('"id":0', `"id":${id}`) }));
            const known = model.get(id);
            if (known === undefined || (known.name === plant.name && known.tag === plant.tag)) {
              expect(response.status).toBe(200);
              expect(response.body).toBe(JSON.stringify(plant));
              model.set(id, plant);
            } else {
              expect(response.status).toBe(409);
              expect(errorCode(response.body)).toBe(1300);
            }
          }
          expect(new Map([...store.plants].map(([id, p]) => [id, { ...p }]))).toEqual(model);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('createPlantHandler order of checks and failures', () => {
  it('never reads the body of an unauthenticated request', async () => {
    const { handle } = setup();
    for (const authorization of [undefined, 'Bearer wrong', 'Basic abc']) {
      const req = request({ headers: authorization ? { authorization } : {}, body: '{"id":1,"name":"n"}' });
      expect((await handle(req)).status).toBe(401);
      expect(req.bodyReads).toBe(0);
    }
  });

  it('checks size before media type, and media type before JSON', async () => {
    const { handle } = setup({ maxBodyBytes: 4 });
    expect(errorCode((await handle(request({ headers: { authorization: `Bearer ${TOKEN}` }, body: 'too long' }))).body)).toBe(1400);
    expect(errorCode((await handle(request({ headers: { authorization: `Bearer ${TOKEN}` }, body: '{' }))).body)).toBe(1401);
    expect(errorCode((await handle(request({ headers: { authorization: `Bearer ${TOKEN}` } }))).body)).toBe(1000);
  });

  it('turns a throwing or rejecting verifier into 500 (1500) and reports it to onError only', async () => {
    for (const authenticate of [
      () => {
        throw new Error('secret');
      },
      () => Promise.reject(new Error('secret')),
    ]) {
      const { handle, errors } = setup({ authenticate });
      const response = await handle(request({ headers: validHeaders, body: '{"id":1,"name":"n"}' }));
      expect(response.status).toBe(500);
      expect(errorCode(response.body)).toBe(1500);
      expect(response.body).not.toContain('secret');
      expect(errors).toHaveLength(1);
    }
  });

  it('accepts only a verifier answer of exactly true', async () => {
    for (const answer of [1, 'yes', {}, false, undefined]) {
      const { handle } = setup({ authenticate: () => answer as boolean });
      expect((await handle(request({ headers: validHeaders, body: '{"id":1,"name":"n"}' }))).status).toBe(401);
    }
  });

  it('turns a failing store into 503 (1501), a full one into 507 (1502)', async () => {
    const failing = setup({ store: { insertIfAbsent: () => Promise.reject(new Error('db down')), get: async () => undefined } });
    const response = await failing.handle(request({ headers: validHeaders, body: '{"id":1,"name":"n"}' }));
    expect([response.status, errorCode(response.body)]).toEqual([503, 1501]);
    expect(response.body).not.toContain('db down');
    expect(failing.errors).toHaveLength(1);
    const throwing = setup({
      store: {
        insertIfAbsent: () => {
          throw new Error('sync');
        },
        get: async () => undefined,
      },
    });
    expect((await throwing.handle(request({ headers: validHeaders, body: '{"id":1,"name":"n"}' }))).status).toBe(503);
    const full = setup({ store: { insertIfAbsent: async () => ({ status: 'full' }), get: async () => undefined } });
    const fullResponse = await full.handle(request({ headers: validHeaders, body: '{"id":1,"name":"n"}' }));
    expect([fullResponse.status, errorCode(fullResponse.body)]).toEqual([507, 1502]);
  });

  it('keeps answering when onError itself throws', async () => {
    const { handle } = setup({
      authenticate: () => {
        throw new Error('x');
      },
      onError: () => {
        throw new Error('logger down');
      },
    });
    expect((await handle(request({ headers: validHeaders, body: '{}' }))).status).toBe(500);
  });

  it('marks unknown paths as unmatched and serves under a basePath', async () => {
    const { handle } = setup({ basePath: '/api/' });
    expect((await handle(request({ url: '/plants', headers: validHeaders, body: '{"id":1,"name":"n"}' }))).unmatched).toBe(true);
    expect((await handle(request({ url: '/api/plants', headers: validHeaders, body: '{"id":1,"name":"n"}' }))).status).toBe(200);
  });

  it('routes absolute-form targets and dot segments by their normalised path, on every adapter alike', async () => {
    const { handle, store } = setup({ basePath: '/v1' });
    const targets = ['http://example.com/v1/plants', '/v1/./plants', '/x/../v1/plants', '/v1/%2e/plants', '/v1/%2E%2e/v1/plants?q=1'];
    for (const [i, url] of targets.entries()) {
      const response = await handle(request({ url, headers: validHeaders, body: `{"id":${i},"name":"n"}` }));
      expect(response.status, url).toBe(200);
    }
    expect(store.plants.size).toBe(targets.length);
    expect((await handle(request({ method: 'GET', url: 'http://example.com/v1/openapi.json' }))).status).toBe(200);
    for (const url of ['/v1/plants/.', '/v1/%70lants', '/v1/plants/x/..', 'http://example.com/plants']) {
      expect((await handle(request({ url, headers: validHeaders, body: '{"id":99,"name":"n"}' }))).unmatched, url).toBe(true);
    }
  });

  it('refuses invalid options at construction', () => {
    const store = mapStore();
    const authenticate = staticTokens([TOKEN]);
    expect(() => createPlantHandler({ store, authenticate: undefined as never })).toThrow(TypeError);
    expect(() => createPlantHandler({ store: undefined as never, authenticate })).toThrow(TypeError);
    expect(() => createPlantHandler({ store, authenticate, maxBodyBytes: -1 })).toThrow(TypeError);
    expect(() => createPlantHandler({ store, authenticate, basePath: 'api' })).toThrow(TypeError);
  });
});
