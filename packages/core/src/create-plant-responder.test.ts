import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidCreate, validCreate } from '@plant-store/testing';
import { createPlantResponder } from './create-plant-responder.ts';
import type { PlantHandlerOptions } from './plant-handler-options.ts';
import type { BodyReading, BodyResult, PlantRequest, PlantResponse } from './exchange/http-types.ts';
import type { InsertResult, PlantStore } from './domain/plant-store.ts';
import type { Plant } from './domain/schemas.ts';
import { staticTokens } from './exchange/static-tokens.ts';

const TOKEN = 'responder-token';
const encoder = new TextEncoder();

/** A store that answers at once, as the memory store does, or after a turn when `waits`. */
function mapStore(waits: boolean): PlantStore {
  const plants = new Map<bigint, Plant>();
  const insert = (id: bigint, plant: Plant): InsertResult => {
    const existing = plants.get(id);
    if (existing !== undefined) return { status: 'exists', existing };
    plants.set(id, { ...plant });
    return { status: 'inserted' };
  };
  return {
    insertIfAbsent: (id, plant) => (waits ? Promise.resolve().then(() => insert(id, plant)) : insert(id, plant)),
    get: (id) => Promise.resolve(plants.get(id)),
  };
}

interface Call {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A plain request; its body read answers at once, or after a turn when `waits`. */
function request({ method, url, headers, body }: Call, waits: boolean): PlantRequest {
  const bytes = encoder.encode(body);
  const read = (maxBytes: number): BodyResult => (bytes.length > maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, bytes });
  return {
    method,
    url,
    header: (name) => headers[name],
    readBody: (maxBytes) => (waits ? Promise.resolve().then(() => read(maxBytes)) : read(maxBytes)),
  };
}

const call = fc.record({
  method: fc.constantFrom('POST', 'GET', 'OPTIONS', 'PUT'),
  url: fc.constantFrom('/plants', '/plants?x=1', '/openapi.json', '/healthz', '/readyz', '/nowhere'),
  headers: fc.record(
    {
      authorization: fc.constantFrom(`Bearer ${TOKEN}`, 'Bearer other-token', 'Basic x'),
      'content-type': fc.constantFrom('application/json', 'text/plain'),
      'x-request-id': fc.constantFrom('req-1', 'not a valid id'),
      origin: fc.constantFrom('https://app.example.com', 'https://elsewhere.example.com'),
    },
    { requiredKeys: [] },
  ),
  body: fc.oneof(
    validCreate().map((create) => create.body),
    invalidCreate().map((create) => create.body),
    fc.constant(''),
  ),
});

/** The handler's options over a fresh store; with `waits`, the verifier and the store answer after a turn. */
const options = (waits: boolean): PlantHandlerOptions => {
  const tokens = staticTokens([TOKEN]);
  return {
    store: mapStore(waits),
    authenticate: waits ? (token, request) => Promise.resolve().then(() => tokens(token, request)) : tokens,
    health: true,
    cors: { origins: ['https://app.example.com'] },
    requestId: true,
  };
};

/** The answers `respondTo` gives `request`: those given before it returned, and all of them once it settled. */
async function answersTo(respondTo: (request: PlantRequest, respond: (response: PlantResponse) => void) => void, request: PlantRequest) {
  const answers: PlantResponse[] = [];
  respondTo(request, (response) => answers.push(response));
  const atOnce = answers.length;
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { atOnce, answers };
}

/** A response with its random request id (the request's own was not sane) made comparable. */
function comparable(response: PlantResponse): PlantResponse {
  const id = response.headers['x-request-id'];
  return id === undefined || id === 'req-1' ? response : { ...response, headers: { ...response.headers, 'x-request-id': '<new>' } };
}

describe('createPlantResponder', () => {
  it('answers exactly once, before it returns when nothing is waited for, and the same whether its inputs answer at once or later', async () => {
    await fc.assert(
      fc.asyncProperty(call, async (given) => {
        const now = await answersTo(createPlantResponder(options(false)), request(given, false));
        const later = await answersTo(createPlantResponder(options(true)), request(given, true));
        expect(now.answers).toHaveLength(1);
        expect(later.answers).toHaveLength(1);
        // The readiness probe asks the store, which is always a wait; nothing else here waits.
        const probesStore = given.method === 'GET' && given.url === '/readyz';
        expect(now.atOnce).toBe(probesStore ? 0 : 1);
        expect(comparable(later.answers[0]!)).toStrictEqual(comparable(now.answers[0]!));
      }),
      { numRuns: 1000 },
    );
  });

  it('answers a sequence of requests through one responder as a new responder answers each, whatever target came before', async () => {
    // The responder remembers the last target's route: requests for other targets, and for targets that differ by a
    // query or a dot segment alone, must still be routed as a responder that saw none before routes them.
    const target = fc.constantFrom(
      '/plants',
      '/plants?x=1',
      '/x/../plants',
      '/plants/',
      '/openapi.json',
      '/healthz',
      '/docs',
      '/docs/app.js',
      '/docs/x',
      '/docs/../plants',
      '/nowhere',
    );
    const page = { html: '<!doctype html>', files: { 'app.js': { contentType: 'text/javascript', body: 'void 0' } } };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(call, target), { minLength: 1, maxLength: 12 }), async (calls) => {
        // One store for both, so that both see the same plants; each request goes to both.
        const shared = { ...options(false), docs: page };
        const oneResponder = createPlantResponder(shared);
        for (const [given, url] of calls) {
          const method = given.method === 'PUT' ? 'GET' : given.method;
          const kept = await answersTo(oneResponder, request({ ...given, method, url }, false));
          // The same request again, to a responder made for it alone: the store already holds what the first created.
          const fresh = await answersTo(createPlantResponder(shared), request({ ...given, method, url }, false));
          expect(comparable(kept.answers[0]!), `${method} ${url}`).toStrictEqual(comparable(fresh.answers[0]!));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers 500 (1500) to a store that answers no InsertResult, at once or after a wait, and reports it', async () => {
    for (const answer of [undefined, Promise.resolve(undefined), Promise.resolve({ status: 'unknown' })]) {
      const errors: unknown[] = [];
      const store: PlantStore = { insertIfAbsent: () => answer as unknown as InsertResult, get: () => Promise.resolve(undefined) };
      const respondTo = createPlantResponder({ store, authenticate: staticTokens([TOKEN]), onError: (error) => errors.push(error) });
      const response = await new Promise<PlantResponse>((resolve) =>
        respondTo(
          request(
            {
              method: 'POST',
              url: '/plants',
              headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
              body: '{"id":1,"name":"Fern"}',
            },
            false,
          ),
          resolve,
        ),
      );
      expect(response.status).toBe(500);
      expect(JSON.parse(response.body)).toStrictEqual({ error: 1500, message: 'internal error' });
      expect(errors).toHaveLength(1);
    }
  });
  it('waits on any thenable as on a promise: answers once, at once when it calls back at once, and 500 (1500) when its then throws', async () => {
    const body = encoder.encode('{"id":1,"name":"Fern"}');
    const read: BodyResult = { ok: true, bytes: body };
    const readings: Record<string, () => BodyReading> = {
      'calls back inside then': () => ({ then: (onRead) => onRead(read) }),
      'calls back later, twice, then fails': () => ({
        then: (onRead, onFailed) =>
          setTimeout(() => {
            onRead(read);
            onRead({ ok: false, reason: 'aborted' });
            onFailed?.(new Error('late'));
          }, 0),
      }),
      'throws in then': () => ({
        then: () => {
          throw new Error('broken reader');
        },
      }),
      'throws after calling back': () => ({
        then: (onRead) => {
          onRead(read);
          throw new Error('after the fact');
        },
      }),
    };
    const seen: Record<string, { atOnce: number; answers: number[]; errors: number }> = {};
    for (const [name, reading] of Object.entries(readings)) {
      const errors: unknown[] = [];
      const respondTo = createPlantResponder({ store: mapStore(false), authenticate: staticTokens([TOKEN]), onError: (error) => errors.push(error) });
      const plain: PlantRequest = {
        method: 'POST',
        url: '/plants',
        header: (header) => ({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' })[header],
        readBody: reading,
      };
      const { atOnce, answers } = await answersTo(respondTo, plain);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen[name] = { atOnce, answers: answers.map((answer) => answer.status), errors: errors.length };
    }
    expect(seen).toStrictEqual({
      'calls back inside then': { atOnce: 1, answers: [200], errors: 0 },
      'calls back later, twice, then fails': { atOnce: 0, answers: [200], errors: 0 },
      'throws in then': { atOnce: 1, answers: [500], errors: 1 },
      'throws after calling back': { atOnce: 1, answers: [200], errors: 0 },
    });
  });

  it('reports a respond that throws after a wait to onError, rather than into the callback that ended the wait', async () => {
    for (const waits of [true, false]) {
      const errors: unknown[] = [];
      const respondTo = createPlantResponder({ ...options(waits), onError: (error) => errors.push(error) });
      const body = waits ? (Promise.resolve({ ok: true, bytes: encoder.encode('{"id":1,"name":"Fern"}') }) as Promise<BodyResult>) : undefined;
      const reading: BodyReading = body ?? { then: (onRead) => setTimeout(() => onRead({ ok: true, bytes: encoder.encode('{"id":1,"name":"Fern"}') }), 0) };
      const plain: PlantRequest = {
        method: 'POST',
        url: '/plants',
        header: (header) => ({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' })[header],
        readBody: () => reading,
      };
      respondTo(plain, () => {
        throw new Error('the adapter failed to write');
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(errors.map((error) => (error as Error).message)).toStrictEqual(['the adapter failed to write']);
    }
  });

  it('lets in only a verifier answer of true: anything else it returns or resolves to is 401 (1101)', async () => {
    const verdicts: unknown[] = ['yes', 1, undefined, null, {}, Promise.resolve('true'), { then: (accept: (value: unknown) => void) => accept(1) }];
    for (const verdict of verdicts) {
      const respondTo = createPlantResponder({ store: mapStore(false), authenticate: () => verdict as boolean, onError: () => {} });
      const given: Call = {
        method: 'POST',
        url: '/plants',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: '{"id":1,"name":"Fern"}',
      };
      const { answers } = await answersTo(respondTo, request(given, false));
      expect(answers.map((answer) => [answer.status, JSON.parse(answer.body).error])).toStrictEqual([[401, 1101]]);
    }
  });

  it('hands respond the request id it chose, the one the answer carries, at once or after a wait, and none without the option', async () => {
    await fc.assert(
      fc.asyncProperty(call, fc.boolean(), fc.boolean(), async (given, waits, requestId) => {
        const ids: (string | undefined)[] = [];
        const answers: PlantResponse[] = [];
        const respondTo = createPlantResponder({ ...options(waits), requestId });
        respondTo(request(given, waits), (response, id) => {
          answers.push(response);
          ids.push(id);
        });
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(answers).toHaveLength(1);
        expect(ids).toStrictEqual([requestId ? answers[0]!.headers['x-request-id'] : undefined]);
        if (requestId && given.headers['x-request-id'] === 'req-1') expect(ids[0]).toBe('req-1');
      }),
      { numRuns: 200 },
    );
  });

  it("answers a body the server's deadline cut with 408 (1402) from the error table, at once, closing the connection, with the request's id and CORS headers", () => {
    const respondTo = createPlantResponder({ ...options(false), onError: () => {} });
    const cut: PlantRequest = {
      method: 'POST',
      url: '/plants',
      header: (name) =>
        ({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-request-id': 'req-1', origin: 'https://app.example.com' })[name],
      readBody: () => ({ ok: false, reason: 'timed-out' }),
    };
    const ids: (string | undefined)[] = [];
    const answers: PlantResponse[] = [];
    respondTo(cut, (response, id) => {
      answers.push(response);
      ids.push(id);
    });
    expect(
      answers.map(({ status, headers, body }) => [
        status,
        headers['content-type'],
        headers['connection'],
        headers['access-control-allow-origin'],
        headers['x-request-id'],
        body,
      ]),
    ).toStrictEqual([
      [408, 'application/json', 'close', 'https://app.example.com', 'req-1', '{"error":1402,"message":"the request was not received in time"}'],
    ]);
    expect(ids).toStrictEqual(['req-1']);
  });
});
