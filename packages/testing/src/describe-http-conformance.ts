// Runs under vitest on Node: the conformance suite every server (adapter, runtime, standalone) must pass over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, DOCS_CONTENT_SECURITY_POLICY } from '@plant-store/core';
import { CONFORMANCE_DOCS_PAGE, CONFORMANCE_ORIGIN, CONFORMANCE_TOKEN, INJECTED_FAULT_MESSAGE, type ConformanceScenario } from './conformance-scenarios.ts';
import { keepAliveAgent, send as sendRequest, type RawRequest, type RawResponse } from './http-client.ts';
import { createResponseValidator } from './validate-response.ts';

/** A running server under test. */
export interface RunningTarget {
  /** Where the routes live, basePath included: `http://127.0.0.1:1234/api`. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** One adapter, mount or runtime to check. */
export interface ConformanceTarget {
  readonly name: string;
  /**
   * What a path the handler does not serve gets: `not-found` when standalone
   * (404, code 1200); `host` when mounted, where the host answers 418 `host`.
   */
  readonly unmatched: 'not-found' | 'host';
  /** Starts a server on port 0 built with `conformanceOptions(scenario, …)`. */
  start(scenario: ConformanceScenario): Promise<RunningTarget>;
  /** For a server on `https:`: the certificate authority, in PEM, that vouches for its certificate. */
  readonly ca?: string;
  /**
   * For a server on `https:` that offers HTTP/2: the suite's requests go over
   * HTTP/2; its cases on HTTP/1.1 framing stay on HTTP/1.1, which such a
   * server serves beside it.
   */
  readonly http2?: boolean;
}

const AUTH = { authorization: `Bearer ${CONFORMANCE_TOKEN}` };
const JSON_TYPE = { 'content-type': 'application/json' };
const OK_HEADERS = { ...AUTH, ...JSON_TYPE };
const INT64_MIN = '-9223372036854775808';
const INT64_MAX = '9223372036854775807';

/**
 * Checks that `response` is the interface's Error body with `code` under `status`,
 * and leaks nothing: exactly `error` and `message`, JSON content type, no
 * stack trace, no token, no injected fault detail.
 */
export function expectError(response: RawResponse, status: number, code: number): void {
  expect({ status: response.status, body: response.body }).toMatchObject({ status });
  expect(response.headers['content-type']).toBe('application/json');
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body['error']).toBe(code);
  expect(typeof body['message']).toBe('string');
  expect((body['message'] as string).length).toBeGreaterThan(0);
  expect(response.body).not.toContain(CONFORMANCE_TOKEN);
  expect(response.body).not.toContain(INJECTED_FAULT_MESSAGE);
  expect(response.body).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
}

/** Headers that differ between any two answers of a server: when it was sent, and how the connection goes on. */
const PER_ANSWER_HEADERS = new Set(['date', 'connection', 'keep-alive']);

/**
 * Checks that `head`, the answer to HEAD, is `get`, the answer to GET on the
 * same path, without its body (RFC 9110 §9.3.2): the same status and the same
 * headers, `Content-Length` included, so it is the length of GET's body (or
 * `Transfer-Encoding: chunked` on both, where GET's body is sent chunked).
 */
function expectSameHead(get: RawResponse, head: RawResponse): void {
  const comparable = (response: RawResponse) => Object.fromEntries(Object.entries(response.headers).filter(([name]) => !PER_ANSWER_HEADERS.has(name)));
  expect({ status: head.status, body: head.body, headers: comparable(head) }).toEqual({ status: get.status, body: '', headers: comparable(get) });
  // Framed alike: GET's length declared, or both chunked (the standalone Bun server sends its large docs files so).
  if (get.headers['transfer-encoding'] === undefined) expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
}

let nextId = BigInt(Date.now()) * 1000n;
/** An id no earlier test used, so tests can share one store. */
export function freshId(): bigint {
  return ++nextId;
}

/**
 * The HTTP behaviour every adapter, mount and runtime must share (docs/contract.md), as
 * a vitest suite over real sockets: every row of the status/code table, the
 * int64 edges, idempotent replays, one winner among concurrent creates, chunked
 * and oversized bodies.
 *
 * @example
 * describeHttpConformance({
 *   name: 'my mount',
 *   unmatched: 'host',
 *   start: async (scenario) => startMyServer(conformanceOptions(scenario, createMemoryStore())),
 * });
 */
export function describeHttpConformance(target: ConformanceTarget): void {
  describe(`HTTP conformance: ${target.name}`, () => {
    // Over TLS, every request trusts the target's own certificate authority.
    const send = (baseUrl: string, request: RawRequest) =>
      sendRequest(baseUrl, {
        ...request,
        ...(target.ca === undefined ? {} : { ca: target.ca }),
        ...(target.http2 === true ? { http2: true } : {}),
      });
    const servers = new Map<ConformanceScenario, Promise<RunningTarget>>();
    const server = (scenario: ConformanceScenario) => {
      let started = servers.get(scenario);
      if (started === undefined) servers.set(scenario, (started = target.start(scenario)));
      return started;
    };
    // Every answer is checked against the OpenAPI document the server itself publishes.
    let validate: ReturnType<typeof createResponseValidator> | undefined;
    const checked = (request: RawRequest, response: RawResponse): RawResponse => {
      expect(validate?.(request.method ?? 'POST', request.path, response) ?? ['no document yet']).toEqual([]);
      return response;
    };
    const call = async (request: RawRequest, scenario: ConformanceScenario = 'working') =>
      checked(request, await send((await server(scenario)).baseUrl, request));
    const create = (body: string | Uint8Array, headers: Record<string, string> = OK_HEADERS) => call({ path: '/plants', headers, body });

    beforeAll(async () => {
      const { baseUrl } = await server('working');
      const published = await send(baseUrl, { method: 'GET', path: '/openapi.json' });
      expect(published.status).toBe(200);
      validate = createResponseValidator(JSON.parse(published.body));
    });
    afterAll(async () => {
      await Promise.all([...servers.values()].map(async (started) => (await started).close()));
    });

    describe('200: created, replayed', () => {
      it('creates a plant and answers the Plant without id or unknown keys', async () => {
        const id = freshId();
        const response = await create(`{"id":${id},"name":"Monstera","tag":"tropical","owner":"x","__proto__":{"polluted":1}}`);
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toBe('application/json');
        expect(response.body).toBe('{"name":"Monstera","tag":"tropical"}');
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      });

      it('omits tag when none was given, keeps empty and unicode strings exactly', async () => {
        expect((await create(`{"id":${freshId()},"name":""}`)).body).toBe('{"name":""}');
        const name = 'Kaktus 🌵 \u0000 "q" \\ \u2028';
        const response = await create(`{"id":${freshId()},"name":${JSON.stringify(name)},"tag":""}`);
        expect(response.status).toBe(200);
        expect(JSON.parse(response.body)).toEqual({ name, tag: '' });
      });

      it('replays the same create with 200 and the same body; a different one is 409 and changes nothing', async () => {
        const id = freshId();
        const body = `{"id":${id},"name":"Fern","tag":"green"}`;
        const first = await create(body);
        expect(first.status).toBe(200);
        const again = await create(body);
        expect(again.status).toBe(200);
        expect(again.body).toBe(first.body);
        expectError(await create(`{"id":${id},"name":"Fern","tag":"blue"}`), 409, 1300);
        expectError(await create(`{"id":${id},"name":"Fern"}`), 409, 1300);
        expectError(await create(`{"id":${id},"name":"Other","tag":"green"}`), 409, 1300);
        expect((await create(body)).body).toBe(first.body);
      });

      it('accepts integer forms 5.0 and 5e2 as the integers they are', async () => {
        const base = freshId() * 1000n;
        expect((await create(`{"id":${base}.0,"name":"a"}`)).status).toBe(200);
        expect((await create(`{"id":${base},"name":"a"}`)).status).toBe(200);
        expectError(await create(`{"id":${base},"name":"b"}`), 409, 1300);
        expect((await create(`{"id":${base / 1000n}e3,"name":"a"}`)).status).toBe(200);
        // Leading zeros make an exponent long, not large (RFC 8259 §6).
        expect((await create(`{"id":${base / 1000n}E+0000000000003,"name":"a"}`)).status).toBe(200);
        expectError(await create(`{"id":${base / 1000n}E+0000000000003,"name":"b"}`), 409, 1300);
      });

      it('ignores the query string and accepts Bearer in any case and JSON with a UTF-8 charset', async () => {
        const response = await call({
          path: '/plants?debug=1',
          headers: { authorization: `bEaReR ${CONFORMANCE_TOKEN}`, 'content-type': 'Application/JSON; charset="UTF-8"' },
          body: `{"id":${freshId()},"name":"q"}`,
        });
        expect(response.status).toBe(200);
      });

      it('reads a chunked body', async () => {
        const response = await call({
          path: '/plants',
          headers: OK_HEADERS,
          chunked: true,
          body: ['{"id":', `${freshId()},"na`, 'me":"chunked","tag":"', 'yes"}'],
        });
        expect(response.status).toBe(200);
        expect(response.body).toBe('{"name":"chunked","tag":"yes"}');
      });
    });

    describe('int64 ids', () => {
      it('stores both extremes exactly and rejects one past each (1004)', async () => {
        for (const id of [INT64_MIN, INT64_MAX]) {
          const body = `{"id":${id},"name":"edge ${id}"}`;
          const conflicting = `{"id":${id},"name":"other"}`;
          expect((await create(body)).status).toBe(200);
          expect((await create(body)).status).toBe(200);
          expectError(await create(conflicting), 409, 1300);
        }
        for (const id of ['9223372036854775808', '-9223372036854775809', '1e19', '18446744073709551616']) {
          expectError(await create(`{"id":${id},"name":"too big"}`), 400, 1004);
        }
      });

      it('refuses an id of nearly a megabyte of digits, zeros between its ones, with 1004', async () => {
        // One pass over the digits: a pattern for trailing zeros once took minutes over a run like this one.
        const digits = `1${'0'.repeat(1_000_000)}1`;
        expectError(await create(`{"id":${digits},"name":"long"}`), 400, 1004);
        expectError(await create(`{"id":1.${digits},"name":"long"}`), 400, 1004);
      });

      it('keeps 1152921504606846976 and 1152921504606846977 apart (a double would merge them)', async () => {
        const a = await create('{"id":1152921504606846976,"name":"a"}');
        const b = await create('{"id":1152921504606846977,"name":"b"}');
        expect([a.status, b.status]).toEqual([200, 200]);
        expect((await create('{"id":1152921504606846976,"name":"a"}')).status).toBe(200);
        expect((await create('{"id":1152921504606846977,"name":"b"}')).status).toBe(200);
        expectError(await create('{"id":1152921504606846977,"name":"a"}'), 409, 1300);
        expectError(await create('{"id":1152921504606846976,"name":"b"}'), 409, 1300);
      });
    });

    describe('400: bad bodies', () => {
      it('1000 for no body and an empty one', async () => {
        expectError(await call({ path: '/plants', headers: OK_HEADERS }), 400, 1000);
        expectError(await call({ path: '/plants', headers: AUTH }), 400, 1000);
        expectError(await call({ path: '/plants', headers: OK_HEADERS, chunked: true, body: [] }), 400, 1000);
      });

      it('1001 for invalid JSON and invalid UTF-8, saying where', async () => {
        const syntax = await create('{"id":1,"name":}');
        expectError(syntax, 400, 1001);
        expect(JSON.parse(syntax.body).message).toBe('invalid JSON at offset 15: unexpected "}"');
        const utf8 = await create(new Uint8Array([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x31, 0x2c, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
        expectError(utf8, 400, 1001);
        expect(JSON.parse(utf8.body).message).toBe('body is not valid UTF-8 at byte 13');
      });

      it('1002 for JSON that is not an object', async () => {
        for (const body of ['[]', '"plant"', 'null', '42', 'true']) expectError(await create(body), 400, 1002);
      });

      it('1003 for a missing id or name', async () => {
        const response = await create('{"name":"n"}');
        expectError(response, 400, 1003);
        expect(JSON.parse(response.body).message).toMatch(/^id: /);
        expectError(await create(`{"id":${freshId()}}`), 400, 1003);
      });

      it('1004 for a wrong type or an out-of-range value, naming the field', async () => {
        const cases: [string, string][] = [
          ['{"id":"5","name":"n"}', `id: expected an integer from ${INT64_MIN} to ${INT64_MAX}`],
          ['{"id":5.5,"name":"n"}', `id: expected an integer from ${INT64_MIN} to ${INT64_MAX}`],
          ['{"id":true,"name":"n"}', `id: expected an integer from ${INT64_MIN} to ${INT64_MAX}`],
          ['{"id":null,"name":"n"}', `id: expected an integer from ${INT64_MIN} to ${INT64_MAX}`],
          ['{"id":1,"name":5}', 'name: expected a string'],
          ['{"id":1,"name":"n","tag":null}', 'tag: expected a string'],
        ];
        for (const [body, message] of cases) {
          const response = await create(body);
          expectError(response, 400, 1004);
          expect(JSON.parse(response.body).message).toBe(message);
        }
      });
    });

    describe('401: authentication comes first', () => {
      it('1100 without credentials, with another scheme or an empty token', async () => {
        for (const authorization of [undefined, 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', CONFORMANCE_TOKEN]) {
          const headers: Record<string, string> = { ...JSON_TYPE };
          if (authorization !== undefined) headers['authorization'] = authorization;
          const response = await create(`{"id":${freshId()},"name":"n"}`, headers);
          expectError(response, 401, 1100);
          expect(response.headers['www-authenticate']).toBe('Bearer realm="plant-store"');
        }
      });

      it('1101 for a rejected token, with error="invalid_token"', async () => {
        for (const token of ['wrong-token', `${CONFORMANCE_TOKEN}x`, CONFORMANCE_TOKEN.slice(0, -1), 'not a token']) {
          const response = await create(`{"id":${freshId()},"name":"n"}`, { ...JSON_TYPE, authorization: `Bearer ${token}` });
          expectError(response, 401, 1101);
          expect(response.headers['www-authenticate']).toBe('Bearer realm="plant-store", error="invalid_token"');
        }
      });

      it('answers 401 before looking at the body, and stores nothing', async () => {
        const id = freshId();
        expectError(await call({ path: '/plants', headers: { ...JSON_TYPE, authorization: 'Bearer nope' }, body: `{"id":${id},"name":"sneaky"}` }), 401, 1101);
        // Under 1 MiB: past that, workerd closes a connection whose unread body is still arriving.
        expectError(
          await call({ path: '/plants', headers: { authorization: 'Bearer nope', 'content-type': 'text/plain' }, body: 'x'.repeat(768 << 10) }),
          401,
          1101,
        );
        expect((await create(`{"id":${id},"name":"honest"}`)).status).toBe(200);
      });
    });

    describe('404, 405: routes', () => {
      it(target.unmatched === 'host' ? 'hands unknown paths to the host' : '1200 for paths that are not routes', async () => {
        for (const path of ['/', '/plant', '/plants/', '/plants/1', '/PLANTS']) {
          const request = { method: 'POST', path, headers: OK_HEADERS, body: '{}' };
          // The host's own answers are not Plant Store's to document.
          const response = target.unmatched === 'host' ? await send((await server('working')).baseUrl, request) : await call(request);
          if (target.unmatched === 'host') {
            expect(response.status).toBe(418);
            expect(response.body).toBe('host');
          } else expectError(response, 404, 1200);
        }
      });

      it('1201 with Allow: POST for another method on /plants', async () => {
        for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
          const response = await call({ method, path: '/plants', headers: AUTH });
          expectError(response, 405, 1201);
          expect(response.headers['allow']).toBe('POST');
        }
      });
    });

    describe('GET /openapi.json', () => {
      it('publishes the OpenAPI 3.1 document without authentication, with servers at the mount point', async () => {
        const response = await call({ method: 'GET', path: '/openapi.json' });
        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toBe('application/json');
        const document = JSON.parse(response.body) as { openapi: string; info: { title: string }; servers: { url: string }[] };
        expect([document.openapi, document.info.title]).toEqual(['3.1.0', 'OpenAPI Plant Store']);
        const mount = new URL((await server('working')).baseUrl).pathname.replace(/\/$/, '');
        expect(document.servers).toEqual([{ url: mount || '/' }]);
      });

      it('1201 with Allow: GET, HEAD for another method on /openapi.json', async () => {
        const response = await call({ method: 'POST', path: '/openapi.json', headers: OK_HEADERS, body: '{}' });
        expectError(response, 405, 1201);
        expect(response.headers['allow']).toBe('GET, HEAD');
      });

      it('answers HEAD as GET: the same status and headers, no body', async () => {
        const base = (await server('working')).baseUrl;
        // One request id for both (a standalone server sends one), so that the answers may be compared header for header.
        const headers = { 'x-request-id': 'head-probe' };
        expectSameHead(await call({ method: 'GET', path: '/openapi.json', headers }), await call({ method: 'HEAD', path: '/openapi.json', headers }));
        // HEAD /plants is any other method there: 405 with Allow, its Error body left out.
        const head = await send(base, { method: 'HEAD', path: '/plants', headers: AUTH });
        expect([head.status, head.headers['allow'], head.headers['content-type'], head.body]).toEqual([405, 'POST', 'application/json', '']);
      });
    });

    describe('413, 415: size and media type', () => {
      it('1400 for an 8 MiB declared body and a chunked one past 1 MiB, and keeps serving', async () => {
        const big = `{"id":1,"name":"${'x'.repeat(8 << 20)}"}`;
        // Declared too large: answered from the headers, so a careful client never sends it.
        expectError(await call({ path: '/plants', headers: { ...OK_HEADERS, expect: '100-continue' }, body: big }), 413, 1400);
        // Chunked, past 1 MiB and not yet finished: refused while streaming. The client then pauses as a
        // slow uploader would: workerd closes after a refusal without reading what is left, and bytes
        // still arriving turn that close into a reset that can overtake the answer. (Larger uploads that
        // keep sending are checked on Node, where the server drains them, in adapter-node's tests.)
        const chunks = Array.from({ length: 17 }, () => 'x'.repeat(64 << 10));
        const pause = () => new Promise<void>((done) => setTimeout(done, 300));
        expectError(await call({ path: '/plants', headers: OK_HEADERS, chunked: true, body: ['{"id":1,"name":"', ...chunks, pause, '"}'] }), 413, 1400);
        expect((await create(`{"id":${freshId()},"name":"after"}`)).status).toBe(200);
      });

      it('accepts a body of exactly 1 MiB', async () => {
        const prefix = `{"id":${freshId()},"name":"`;
        const body = `${prefix}${'y'.repeat((1 << 20) - prefix.length - 2)}"}`;
        expect(Buffer.byteLength(body)).toBe(1 << 20);
        expect((await create(body)).status).toBe(200);
        expectError(await create(`${body} `), 413, 1400);
      });

      it('1401 for a missing or non-JSON Content-Type, or a charset other than UTF-8', async () => {
        for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx', 'json']) {
          const headers: Record<string, string> = { ...AUTH };
          if (type !== undefined) headers['content-type'] = type;
          expectError(await create(`{"id":${freshId()},"name":"n"}`, headers), 415, 1401);
        }
      });
    });

    describe('409: one winner', () => {
      it('lets exactly one of 32 concurrent creates of one id win', async () => {
        const id = freshId();
        const base = (await server('working')).baseUrl;
        const agent = keepAliveAgent(base, { maxSockets: 32, ca: target.ca });
        try {
          const responses = await Promise.all(
            Array.from({ length: 32 }, (_, i) => {
              const request = { path: '/plants', headers: OK_HEADERS, body: `{"id":${id},"name":"racer ${i}"}`, agent };
              return send(base, request).then((response) => checked(request, response));
            }),
          );
          const statuses = responses.map((response) => response.status).sort();
          expect(statuses).toEqual([200, ...Array<number>(31).fill(409)]);
          const winner = responses.find((response) => response.status === 200)!;
          expect((await create(`{"id":${id},"name":${JSON.stringify(JSON.parse(winner.body).name)}}`)).status).toBe(200);
        } finally {
          agent.destroy();
        }
      });
    });

    describe('opt-in features (the features scenario)', () => {
      // Answers are checked against the document the features server publishes, which lists its extra routes.
      let validateFeatures: ReturnType<typeof createResponseValidator> | undefined;
      const callFeatures = async (request: RawRequest) => {
        const response = await send((await server('features')).baseUrl, request);
        expect(validateFeatures?.(request.method ?? 'POST', request.path, response) ?? ['no document yet']).toEqual([]);
        return response;
      };
      // Preflights belong to no operation of the document; their answers are checked one by one.
      const preflight = async (path: string, origin: string, method = 'POST') =>
        send((await server('features')).baseUrl, {
          method: 'OPTIONS',
          path,
          headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
        });
      const fromApp = { origin: CONFORMANCE_ORIGIN };
      const varyOrigin = (response: RawResponse) =>
        String(response.headers['vary'] ?? '')
          .toLowerCase()
          .split(/\s*,\s*/)
          .includes('origin');

      beforeAll(async () => {
        const published = await send((await server('features')).baseUrl, { method: 'GET', path: '/openapi.json' });
        expect(published.status).toBe(200);
        validateFeatures = createResponseValidator(JSON.parse(published.body));
      });

      it('CORS: answers a preflight from an allowed origin with 200, an empty body and the exact origin', async () => {
        for (const [path, methods] of [
          ['/plants', 'POST'],
          ['/openapi.json', 'GET'],
          ['/readyz', 'GET'],
        ] as const) {
          const response = await preflight(path, CONFORMANCE_ORIGIN);
          expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 200, body: '' });
          expect(response.headers['access-control-allow-origin']).toBe(CONFORMANCE_ORIGIN);
          expect(response.headers['access-control-allow-methods']).toBe(methods);
          expect(response.headers['access-control-allow-headers']).toBe(CORS_ALLOWED_HEADERS);
          expect(response.headers['access-control-max-age']).toBe('600');
          expect(response.headers['access-control-allow-credentials']).toBe('true');
          expect(varyOrigin(response)).toBe(true);
          expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        }
      });

      it('CORS: refuses a preflight from any other origin with 403 (1102), without Access-Control-Allow-Origin', async () => {
        for (const origin of ['https://evil.example', 'https://app.example.evil', 'http://app.example', 'null']) {
          const response = await preflight('/plants', origin);
          expectError(response, 403, 1102);
          expect(response.headers['access-control-allow-origin']).toBeUndefined();
          expect(varyOrigin(response)).toBe(true);
        }
      });

      it('CORS: every answer to an allowed origin carries the origin and the exposed headers, errors included', async () => {
        const answers = [
          await callFeatures({ path: '/plants', headers: { ...OK_HEADERS, ...fromApp }, body: `{"id":${freshId()},"name":"cors"}` }),
          await callFeatures({ path: '/plants', headers: { ...JSON_TYPE, ...fromApp }, body: '{}' }),
          await callFeatures({ method: 'GET', path: '/plants', headers: fromApp }),
          await callFeatures({ method: 'OPTIONS', path: '/plants', headers: fromApp }),
          await callFeatures({ method: 'GET', path: '/openapi.json', headers: fromApp }),
        ];
        expect(answers.map((response) => response.status)).toEqual([200, 401, 405, 405, 200]);
        for (const response of answers) {
          expect(response.headers['access-control-allow-origin']).toBe(CONFORMANCE_ORIGIN);
          expect(response.headers['access-control-expose-headers']).toBe(CORS_EXPOSED_HEADERS);
          expect(response.headers['access-control-allow-credentials']).toBe('true');
          expect(varyOrigin(response)).toBe(true);
        }
        const other = await callFeatures({
          path: '/plants',
          headers: { ...OK_HEADERS, origin: 'https://evil.example' },
          body: `{"id":${freshId()},"name":"x"}`,
        });
        expect(other.status).toBe(200);
        expect(other.headers['access-control-allow-origin']).toBeUndefined();
        expect(varyOrigin(other)).toBe(true);
      });

      it('request ids: echoes a sane X-Request-Id, replaces any other with a new UUID, on every answer', async () => {
        const sane = 'req-42_a.b:c+/=';
        const echoed = await callFeatures({ path: '/plants', headers: { ...OK_HEADERS, 'x-request-id': sane }, body: `{"id":${freshId()},"name":"id"}` });
        expect([echoed.status, echoed.headers['x-request-id']]).toEqual([200, sane]);
        const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
        const seen = new Set<string>();
        for (const id of [undefined, '', 'has space', 'x'.repeat(129), 'quote"d', 'a,b']) {
          const headers: Record<string, string> = { ...JSON_TYPE };
          if (id !== undefined) headers['x-request-id'] = id;
          const response = await callFeatures({ path: '/plants', headers, body: '{}' });
          expectError(response, 401, 1100);
          const given = String(response.headers['x-request-id']);
          expect(given).toMatch(uuid);
          seen.add(given);
        }
        expect(seen.size).toBe(6);
        expect((await callFeatures({ method: 'GET', path: '/readyz', headers: { 'x-request-id': sane } })).headers['x-request-id']).toBe(sane);
        expect((await callFeatures({ method: 'GET', path: '/docs', headers: { 'x-request-id': sane } })).headers['x-request-id']).toBe(sane);
      });

      it('health: /healthz and /readyz answer 200 without authentication and are never cached; other methods 405', async () => {
        const alive = await callFeatures({ method: 'GET', path: '/healthz' });
        expect([alive.status, alive.body, alive.headers['cache-control']]).toEqual([200, '{"status":"ok"}', 'no-store']);
        const ready = await callFeatures({ method: 'GET', path: '/readyz?probe=1' });
        expect([ready.status, ready.body, ready.headers['cache-control']]).toEqual([200, '{"status":"ready"}', 'no-store']);
        for (const path of ['/healthz', '/readyz']) {
          const response = await callFeatures({ method: 'POST', path, headers: OK_HEADERS, body: '{}' });
          expectError(response, 405, 1201);
          expect(response.headers['allow']).toBe('GET, HEAD');
        }
      });

      it('health and docs: answer HEAD as GET, the same status and headers, no body (uptime checkers probe with HEAD)', async () => {
        // One request id for both, so that the answers may be compared header for header.
        const headers = { 'x-request-id': 'head-probe', ...fromApp };
        const page = await callFeatures({ method: 'GET', path: '/docs', headers });
        const file = /<script\b[^>]*?\bsrc="([^"]*)"/.exec(page.body)?.[1];
        expect(file).toBeDefined();
        for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs', `/${file}`, '/docs/no-such-file.js']) {
          const get = await callFeatures({ method: 'GET', path, headers });
          expectSameHead(get, await callFeatures({ method: 'HEAD', path, headers }));
        }
        const failing = (await server('store-failing')).baseUrl;
        const notReady = await send(failing, { method: 'GET', path: '/readyz', headers });
        expectSameHead(notReady, await send(failing, { method: 'HEAD', path: '/readyz', headers }));
        expect(notReady.status).toBe(503);
      });

      it('health: /readyz is 503 (1501) when the store is not ready, and /healthz still 200', async () => {
        const base = (await server('store-failing')).baseUrl;
        expectError(await send(base, { method: 'GET', path: '/readyz' }), 503, 1501);
        expect((await send(base, { method: 'GET', path: '/healthz' })).status).toBe(200);
      });

      it('docs: serves the page and every file it names without authentication, under a strict Content-Security-Policy', async () => {
        // A standalone server may serve its own page rather than the scenario's: what is checked holds for any page.
        const page = await callFeatures({ method: 'GET', path: '/docs' });
        expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
        const names = [...page.body.matchAll(/<(?:script|link|img)\b[^>]*?\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
        // Only relative references into the page's own files: it reaches no other host.
        for (const name of names) expect(name).toMatch(/^docs\/[A-Za-z0-9._~/-]+$/);
        const files = await Promise.all(names.map((name) => callFeatures({ method: 'GET', path: `/${name}` })));
        for (const response of [page, ...files]) {
          expect(response.status).toBe(200);
          expect(response.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
          expect(response.headers['x-content-type-options']).toBe('nosniff');
          expect(response.headers['cache-control']).toBeDefined();
        }
        if (page.body === CONFORMANCE_DOCS_PAGE.html) {
          const expected = CONFORMANCE_DOCS_PAGE.files['page.js']!;
          expect([files[0]!.headers['content-type'], files[0]!.body]).toEqual([expected.contentType, expected.body]);
        }
        for (const path of ['/docs/no-such-file.js', '/docs/', '/docs/no-such-file.js/x']) expectError(await callFeatures({ method: 'GET', path }), 404, 1200);
        const post = await callFeatures({ method: 'POST', path: '/docs', headers: OK_HEADERS, body: '{}' });
        expectError(post, 405, 1201);
        expect(post.headers['allow']).toBe('GET, HEAD');
      });
    });

    describe('5xx: failures of what the service depends on', () => {
      const plant = () => `{"id":${freshId()},"name":"n"}`;
      it('500 (1500) when the verifier throws, without its details', async () => {
        expectError(await call({ path: '/plants', headers: OK_HEADERS, body: plant() }, 'authenticate-throwing'), 500, 1500);
      });
      it('503 (1501) when the store fails, without its details', async () => {
        expectError(await call({ path: '/plants', headers: OK_HEADERS, body: plant() }, 'store-failing'), 503, 1501);
      });
      it('507 (1502) when the store is full', async () => {
        expectError(await call({ path: '/plants', headers: OK_HEADERS, body: plant() }, 'store-full'), 507, 1502);
      });
    });
  });
}
