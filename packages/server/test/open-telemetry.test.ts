// Runs under vitest on Node: serve() with the tracer loadOpenTelemetryTracer finds, against the
// OpenTelemetry SDK and its in-memory exporter, over real sockets.
import { SpanKind, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { send } from '@plant-store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOpenTelemetryTracer, serve } from '../src/index.ts';

const TOKEN = 'otel-token';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN}-01`;
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** serve() as the standalone server runs it, with JSON access-log lines gathered; a tracer when one is given. */
async function start(tracer: Awaited<ReturnType<typeof loadOpenTelemetryTracer>>) {
  const lines: string[] = [];
  const running = await serve({
    store: createMemoryStore(),
    authenticate: staticTokens([TOKEN]),
    port: 0,
    requestId: true,
    logFormat: 'json',
    accessLog: (line) => lines.push(line),
    ...(tracer === undefined ? {} : { tracer }),
  });
  return { running, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('traces through @opentelemetry/api', () => {
  afterAll(() => trace.disable());

  it('without a registered SDK: no tracer, and the log line still carries the trace id of a valid traceparent', async () => {
    expect(await loadOpenTelemetryTracer()).toBeUndefined();
    const { running, lines } = await start(undefined);
    const created = await send(running.url, { path: '/plants', headers: { ...HEADERS, traceparent: TRACEPARENT }, body: '{"id":1,"name":"Fern"}' });
    const invalid = await send(running.url, {
      path: '/plants',
      headers: { ...HEADERS, traceparent: TRACEPARENT.toUpperCase() },
      body: '{"id":1,"name":"Fern"}',
    });
    await running.close();
    expect([created.status, invalid.status]).toEqual([200, 200]);
    expect(lines().map((line) => line['traceId'])).toEqual([TRACE_ID, null]);
  });

  it('with the SDK registered: a server span under the caller, a store span under it, and the same trace id in the log line; never the token', async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    const tracer = await loadOpenTelemetryTracer();
    expect(tracer).toBeDefined();
    const { running, lines } = await start(tracer);
    const created = await send(running.url, {
      path: '/plants?note=x',
      headers: { ...HEADERS, traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7', 'x-request-id': 'req-9' },
      body: '{"id":1,"name":"Fern"}',
    });
    const untraced = await send(running.url, { path: '/plants', headers: { 'content-type': 'application/json' }, body: '{}' });
    await running.close();
    expect([created.status, untraced.status]).toEqual([200, 401]);
    const spans = exporter.getFinishedSpans();
    const server = spans.find((span) => span.kind === SpanKind.SERVER && span.spanContext().traceId === TRACE_ID);
    const store = spans.find((span) => span.kind === SpanKind.INTERNAL);
    expect(server?.name).toBe('POST /plants');
    expect(server!.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: CALLER_SPAN, isRemote: true });
    expect(server!.spanContext().traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    expect(server!.attributes).toEqual({
      'http.request.method': 'POST',
      'url.path': '/plants',
      'http.route': '/plants',
      'plant_store.request_id': 'req-9',
      'http.response.status_code': 200,
    });
    expect(store?.name).toBe('plant_store insert_if_absent');
    expect(store!.spanContext().traceId).toBe(TRACE_ID);
    expect(store!.parentSpanContext?.spanId).toBe(server!.spanContext().spanId);
    expect(store!.attributes).toMatchObject({ 'db.operation.name': 'insert_if_absent', 'plant_store.outcome': 'created' });
    // The refused create started a trace of its own, with no store span.
    const root = spans.find((span) => span.kind === SpanKind.SERVER && span.spanContext().traceId !== TRACE_ID);
    expect(root?.parentSpanContext).toBeUndefined();
    expect(root!.attributes['http.response.status_code']).toBe(401);
    expect(spans).toHaveLength(3);
    expect(JSON.stringify(spans.map((span) => [span.name, span.attributes]))).not.toContain(TOKEN);
    expect(lines()[0]).toMatchObject({ requestId: 'req-9', traceId: TRACE_ID, status: 200 });
    // Without a traceparent, the line names the trace the server span began.
    expect(lines()[1]).toMatchObject({ traceId: root!.spanContext().traceId, status: 401 });
  });
});
