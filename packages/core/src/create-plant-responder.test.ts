import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidCreate, validCreate } from '@plant-store/testing';
import { createPlantHandler } from './create-plant-handler.ts';
import { createPlantResponder, type PlantHandlerOptions } from './create-plant-responder.ts';
import type { BodyResult, PlantRequest, PlantResponse } from './http-types.ts';
import type { InsertResult, PlantStore } from './plant-store.ts';
import type { Plant } from './schemas.ts';
import { staticTokens } from './static-tokens.ts';

const TOKEN = 'responder-token';
const encoder = new TextEncoder();

/** A store that answers at once, as the memory store does. */
function syncStore(): PlantStore {
  const plants = new Map<bigint, Plant>();
  return {
    insertIfAbsent(id, plant): InsertResult {
      const existing = plants.get(id);
      if (existing !== undefined) return { status: 'exists', existing };
      plants.set(id, { ...plant });
      return { status: 'inserted' };
    },
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
  url: fc.constantFrom('/plants', '/plants?x=1', '/openapi.json', '/healthz', '/nowhere'),
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

const options = (store: PlantStore): PlantHandlerOptions => ({
  store,
  authenticate: staticTokens([TOKEN]),
  health: true,
  cors: { origins: ['https://app.example.com'] },
});

/** A response with its random request id (the request's own was not sane) made comparable. */
function comparable(response: PlantResponse): PlantResponse {
  const id = response.headers['x-request-id'];
  return id === undefined || id === 'req-1' ? response : { ...response, headers: { ...response.headers, 'x-request-id': '<new>' } };
}

describe('createPlantResponder', () => {
  it('answers exactly once, before it returns when nothing is waited for, and as createPlantHandler does', async () => {
    await fc.assert(
      fc.asyncProperty(call, fc.boolean(), async (given, waits) => {
        const answers: PlantResponse[] = [];
        const respondTo = createPlantResponder({ ...options(syncStore()), requestId: true });
        respondTo(request(given, waits), (response) => answers.push(response));
        // A body read that waits is the only wait here: a request that never reads answers at once.
        if (!waits) expect(answers).toHaveLength(1);
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(answers).toHaveLength(1);
        const handle = createPlantHandler({ ...options(syncStore()), requestId: true });
        expect(comparable(answers[0]!)).toStrictEqual(comparable(await handle(request(given, waits))));
      }),
      { numRuns: 1000 },
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
});
