// Runs under vitest on Node.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createPlantResponder } from '../../create-plant-responder.ts';
import { createOverloadGate } from '../overload/overload-gate.ts';
import type { PlantRequest, PlantResponse } from '../../exchange/http-types.ts';
import { createPlantMetrics } from './plant-metrics.ts';
import type { InsertResult, PlantStore } from '../../domain/plant-store.ts';
import type { PlantSpan, PlantTracer, RemoteParent, SpanAttributes } from '../tracing/plant-tracer.ts';
import type { Plant } from '../../domain/schemas.ts';
import { staticTokens } from '../../exchange/static-tokens.ts';
import { methodLabel } from '../../exchange/method-label.ts';

const TOKEN = 'metrics-token';
const encoder = new TextEncoder();

function mapStore(): PlantStore {
  const plants = new Map<bigint, Plant>();
  return {
    insertIfAbsent(id, plant): InsertResult {
      const existing = plants.get(id);
      if (existing !== undefined) return { status: 'exists', existing };
      plants.set(id, plant);
      return { status: 'inserted' };
    },
    get: (id) => Promise.resolve(plants.get(id)),
  };
}

function request(method: string, url: string, headers: Record<string, string> = {}, body = ''): PlantRequest {
  const bytes = encoder.encode(body);
  return {
    method,
    url,
    header: (name) => headers[name],
    readBody: (maxBytes) => (bytes.length > maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, bytes }),
  };
}

function answerOf(respond: ReturnType<typeof createPlantResponder>, plantRequest: PlantRequest): PlantResponse {
  let answer: PlantResponse | undefined;
  respond(plantRequest, (response) => (answer = response));
  return answer!;
}

const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** The value of one sample line of an exposition, by its name and label set as written. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the metrics option', () => {
  it('counts creates by outcome and refusals by code, and serves them only to an accepted token', () => {
    const metrics = createPlantMetrics({ labels: { process_pid: '7' } });
    const respond = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), metrics, basePath: '/api' });
    const create = (body: string, headers: Record<string, string> = AUTH) => answerOf(respond, request('POST', '/api/plants', headers, body)).status;
    expect(create('{"id":1,"name":"Fern"}')).toBe(200);
    expect(create('{"id":1,"name":"Fern"}')).toBe(200);
    expect(create('{"id":1,"name":"Moss"}')).toBe(409);
    expect(create('{"id":')).toBe(400);
    expect(create('{"id":2,"name":"Fern"}', {})).toBe(401);
    expect(create('x'.repeat(2 * 1024 * 1024))).toBe(413);
    expect(answerOf(respond, request('GET', '/api/metrics')).status).toBe(401);
    expect(answerOf(respond, request('GET', '/api/metrics', { authorization: 'Bearer nope' })).status).toBe(401);
    const scraped = answerOf(respond, request('GET', '/api/metrics', { authorization: `Bearer ${TOKEN}` }));
    expect(scraped.status).toBe(200);
    expect(scraped.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = scraped.body;
    expect(sample(text, 'plant_store_creates_total{process_pid="7",outcome="inserted"}')).toBe(1);
    expect(sample(text, 'plant_store_creates_total{process_pid="7",outcome="replayed"}')).toBe(1);
    expect(sample(text, 'plant_store_creates_total{process_pid="7",outcome="conflict",error_code="1300"}')).toBe(1);
    expect(sample(text, 'plant_store_creates_total{process_pid="7",outcome="refused",error_code="1001"}')).toBe(1);
    expect(sample(text, 'plant_store_creates_total{process_pid="7",outcome="refused",error_code="1100"}')).toBe(1);
    expect(sample(text, 'plant_store_creates_total{process_pid="7",outcome="refused",error_code="1400"}')).toBe(1);
    const duration = 'http_server_request_duration_seconds_count{process_pid="7",http_route="/api/plants",http_request_method="POST"';
    expect(sample(text, `${duration},http_response_status_code="200"}`)).toBe(2);
    expect(
      sample(
        text,
        'http_server_request_duration_seconds_count{process_pid="7",http_route="/api/metrics",http_request_method="GET",http_response_status_code="401"}',
      ),
    ).toBe(2);
    expect(sample(text, 'plant_store_store_duration_seconds_count{process_pid="7",operation="insert_if_absent",outcome="ok"}')).toBe(3);
    // The scrape itself is in flight while it is written.
    expect(sample(text, 'http_server_active_requests{process_pid="7"}')).toBe(1);
    expect(sample(text, 'plant_store_draining{process_pid="7"}')).toBe(0);
  });

  it('counts a group commit only when a store reports one, and the draining a server reports', () => {
    const metrics = createPlantMetrics();
    expect(metrics.expose()).not.toContain('plant_store_group_commit_size');
    metrics.observeGroupCommit(3);
    metrics.setDraining(true);
    expect(sample(metrics.expose(), 'plant_store_group_commit_size_bucket{le="4"}')).toBe(1);
    expect(sample(metrics.expose(), 'plant_store_draining')).toBe(1);
  });

  it('gives no route label to a path no route serves, and _OTHER for an unknown method', () => {
    const metrics = createPlantMetrics();
    const respond = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), metrics: metrics });
    answerOf(respond, request('GET', '/nowhere'));
    answerOf(respond, request('BREW', '/plants'));
    const text = metrics.expose();
    expect(sample(text, 'http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="404"}')).toBe(1);
    expect(sample(text, 'http_server_request_duration_seconds_count{http_route="/plants",http_request_method="_OTHER",http_response_status_code="405"}')).toBe(
      1,
    );
  });

  it('counts each answer in its own series, whatever series the answers before it fell in', () => {
    // Requests that land in the same series in a row, and in others between them (route, method and status).
    let nextId = 2;
    const kinds = {
      created: () => request('POST', '/plants', AUTH, `{"id":${nextId++},"name":"Fern"}`),
      conflict: () => request('POST', '/plants', AUTH, '{"id":1,"name":"Moss"}'),
      unauthorized: () => request('POST', '/plants', {}, '{}'),
      wrongMethod: () => request('BREW', '/plants'),
      knownWrongMethod: () => request('GET', '/plants'),
      otherWrongMethod: () => request('TEA', '/plants'),
      lowerCase: () => request('post', '/plants'),
      nowhere: () => request('GET', '/nowhere'),
      scrape: () => request('GET', '/metrics', AUTH),
      document: () => request('GET', '/openapi.json'),
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...(Object.keys(kinds) as (keyof typeof kinds)[])), { maxLength: 40 }), (sequence) => {
        const metrics = createPlantMetrics();
        const store = mapStore();
        const respond = createPlantResponder({ store, authenticate: staticTokens([TOKEN]), metrics });
        answerOf(respond, request('POST', '/plants', AUTH, '{"id":1,"name":"Fern"}'));
        // Each series' count, by its label set as the exposition writes it.
        const labels = (sent: PlantRequest, status: number) =>
          `${sent.url === '/nowhere' ? '' : `http_route="${sent.url}",`}http_request_method="${methodLabel(sent.method)}",http_response_status_code="${status}"`;
        const expected = new Map<string, number>([['http_route="/plants",http_request_method="POST",http_response_status_code="200"', 1]]);
        for (const kind of sequence) {
          const sent = kinds[kind]();
          const key = labels(sent, answerOf(respond, sent).status);
          expected.set(key, (expected.get(key) ?? 0) + 1);
        }
        const text = metrics.expose();
        for (const [key, count] of expected) expect(sample(text, `http_server_request_duration_seconds_count{${key}}`), key).toBe(count);
        const counted = text.split('\n').filter((line) => line.startsWith('http_server_request_duration_seconds_count{'));
        expect(counted).toHaveLength(expected.size);
      }),
    );
  });

  it('times a stored create (inserted or replayed) to the end of its store call, and any other answer to its own clock reading', () => {
    // Each clock reading one millisecond after the last: a create reads it as it begins, around its store call, and
    // (unless stored) as it is answered.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => ++now);
    try {
      const metrics = createPlantMetrics();
      const respond = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), metrics });
      const create = (name: string) => answerOf(respond, request('POST', '/plants', AUTH, `{"id":1,"name":"${name}"}`)).status;
      expect([create('Fern'), create('Fern'), create('Moss')]).toEqual([200, 200, 409]);
      const text = metrics.expose();
      const sum = (status: number) =>
        sample(text, `http_server_request_duration_seconds_sum{http_route="/plants",http_request_method="POST",http_response_status_code="${status}"}`);
      // Begun at n, store called at n + 1, ended at n + 2: two milliseconds each when stored, three for the conflict.
      expect(sum(200)).toBeCloseTo(0.004, 9);
      expect(sum(409)).toBeCloseTo(0.003, 9);
      expect(sample(text, 'plant_store_store_duration_seconds_sum{operation="insert_if_absent",outcome="ok"}')).toBeCloseTo(0.003, 9);
    } finally {
      clock.mockRestore();
    }
  });

  it('serves no metrics route without the option, and declares it in the served document only with it', () => {
    const without = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]) });
    expect(answerOf(without, request('GET', '/metrics', { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    const pathsOf = (respond: typeof without) => Object.keys((JSON.parse(answerOf(respond, request('GET', '/openapi.json')).body) as { paths: object }).paths);
    expect(pathsOf(without)).not.toContain('/metrics');
    const withMetrics = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), metrics: true });
    expect(pathsOf(withMetrics)).toContain('/metrics');
  });

  it('refuses label names Prometheus would refuse, and a metrics option of another kind', () => {
    expect(() => createPlantMetrics({ labels: { 'a-b': 'x' } })).toThrow(TypeError);
    expect(() => createPlantMetrics({ labels: { __x: 'x' } })).toThrow(TypeError);
    expect(() => createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), metrics: {} as never })).toThrow(/`metrics`/);
  });
});

interface Recorded {
  readonly name: string;
  readonly kind: string;
  readonly parent: RemoteParent | Recorded | undefined;
  readonly attributes: Record<string, string | number>;
  readonly traceId: string;
  failed?: string;
  ended: number;
}

/** A tracer that keeps what it is asked, as an exporter would receive it. */
function recordingTracer(): { tracer: PlantTracer; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const tracer: PlantTracer = {
    startSpan(name, kind, parent, attributes: SpanAttributes) {
      const traceId = parent?.traceId ?? 'f'.repeat(32);
      const span: Recorded & PlantSpan = {
        name,
        kind,
        parent: parent as Recorded | RemoteParent | undefined,
        attributes: { ...attributes },
        traceId,
        ended: 0,
        setAttribute(key, value) {
          this.attributes[key] = value;
        },
        fail(description) {
          this.failed = description;
        },
        end() {
          this.ended++;
        },
      };
      spans.push(span);
      return span;
    },
  };
  return { tracer, spans };
}

describe('the tracer option', () => {
  const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  it('starts a server span under a valid traceparent and a store span under it, each ended once, never with the token', () => {
    const { tracer, spans } = recordingTracer();
    const respond = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), tracer, requestId: true });
    const headers = { ...AUTH, traceparent: TRACEPARENT, tracestate: 'rojo=1', 'x-request-id': 'req-1' };
    expect(answerOf(respond, request('POST', '/plants?secret=1', headers, '{"id":1,"name":"Fern"}')).status).toBe(200);
    const [server, store] = spans;
    expect(server).toMatchObject({ name: 'POST /plants', kind: 'server', traceId: '4bf92f3577b34da6a3ce929d0e0e4736', ended: 1 });
    expect(server!.parent).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', traceFlags: 1, traceState: 'rojo=1' });
    expect(server!.attributes).toEqual({
      'http.request.method': 'POST',
      'url.path': '/plants',
      'http.route': '/plants',
      'plant_store.request_id': 'req-1',
      'http.response.status_code': 200,
    });
    expect(store).toMatchObject({ name: 'plant_store insert_if_absent', kind: 'internal', parent: server, ended: 1 });
    expect(store!.attributes['plant_store.outcome']).toBe('created');
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain(TOKEN);
  });

  it('names a span of a method outside the known set HTTP, and keeps only the path of an absolute-form target', () => {
    const { tracer, spans } = recordingTracer();
    const respond = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), tracer });
    const targets = ['http://evil.example/plants?token=1', '/plants#a', 'http://evil.example?token=/secret', '/plants?x#y'];
    for (const target of targets) answerOf(respond, request('GET', target, AUTH, ''));
    answerOf(respond, request('BREW', '/plants', AUTH, ''));
    expect(spans.map((span) => [span.name, span.attributes['url.path']])).toEqual([
      ['GET /plants', '/plants'],
      ['GET /plants', '/plants'],
      ['GET', '/'],
      ['GET /plants', '/plants'],
      ['HTTP /plants', '/plants'],
    ]);
    expect(spans[4]!.attributes).toMatchObject({ 'http.request.method': '_OTHER', 'http.request.method_original': 'BREW' });
  });

  it('starts a root span for a missing or invalid traceparent, and no store span for a refusal', () => {
    const { tracer, spans } = recordingTracer();
    const respond = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), tracer });
    answerOf(respond, request('POST', '/plants', { traceparent: TRACEPARENT.toUpperCase() }, '{}'));
    expect(spans).toHaveLength(1);
    expect(spans[0]!.parent).toBeUndefined();
    expect(spans[0]!.attributes['http.response.status_code']).toBe(401);
  });

  it("hands respond and onError the server span's trace", () => {
    const { tracer } = recordingTracer();
    const contexts: unknown[] = [];
    const failing: PlantStore = {
      insertIfAbsent() {
        throw new Error('disk gone');
      },
      get: () => Promise.resolve(undefined),
    };
    const respond = createPlantResponder({ store: failing, authenticate: staticTokens([TOKEN]), tracer, onError: (_, context) => contexts.push(context) });
    let told: string | undefined;
    respond(request('POST', '/plants', { ...AUTH, traceparent: TRACEPARENT }, '{"id":1,"name":"Fern"}'), (_, __, traceId) => (told = traceId));
    expect(told).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(contexts).toEqual([expect.objectContaining({ kind: 'storage-unavailable', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' })]);
  });

  it("hands respond the server span's trace with the overload gate on too, and gives the gate's place back", () => {
    const { tracer } = recordingTracer();
    const overload = createOverloadGate({ maxInFlight: 1, maxEventLoopDelayMs: 0 });
    const respond = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), tracer, overload });
    const told: (string | undefined)[] = [];
    for (const id of [1, 2]) {
      respond(request('POST', '/plants', { ...AUTH, traceparent: TRACEPARENT }, `{"id":${id},"name":"Fern"}`), (response, __, traceId) => {
        told.push(`${response.status} ${traceId}`);
      });
    }
    // The second is admitted only if the first gave its one place back as it was answered.
    expect(told).toEqual(['200 4bf92f3577b34da6a3ce929d0e0e4736', '200 4bf92f3577b34da6a3ce929d0e0e4736']);
  });

  it('answers when the tracer throws', () => {
    const tracer: PlantTracer = {
      startSpan() {
        throw new Error('tracer down');
      },
    };
    const respond = createPlantResponder({ store: mapStore(), authenticate: staticTokens([TOKEN]), tracer });
    expect(answerOf(respond, request('POST', '/plants', AUTH, '{"id":1,"name":"Fern"}')).status).toBe(200);
  });
});
