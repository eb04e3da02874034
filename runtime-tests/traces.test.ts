// Runs in the test process (Node): the production standalone servers of Node, Bun and Deno with an
// OpenTelemetry SDK registered before them (node --import, bun and deno --preload of
// packages/server/test/fixtures/register-tracing.mjs), as docs/operations.md ("Traces") says
// to: a create carrying a traceparent is traced in a server span under the caller's span and a
// store span under it, and its JSON access-log line names the same trace.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runtime, spawnServer, temporaryDirectories, type Runtime } from './runtimes.ts';
import { until } from './support/until.ts';

const SETUP = fileURLToPath(new URL('../packages/server/test/fixtures/register-tracing.mjs', import.meta.url));
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const directory = temporaryDirectories('plant-store-traces-');

interface ExportedSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly attributes: Record<string, unknown>;
}

/** `target` started with the SDK registered first: Node's `--import`, Bun's and Deno's `--preload` (Deno also let write the spans). */
function traced(target: Runtime, spansFile: string): Runtime {
  if (target.name === 'Deno') {
    const [run, ...rest] = target.production;
    return { ...target, production: [run!, '--preload', SETUP, `--allow-write=${spansFile}`, ...rest] };
  }
  return { ...target, production: [target.name === 'Bun' ? '--preload' : '--import', SETUP, ...target.production] };
}

describe.each(['Node 22', 'Bun', 'Deno'])('%s standalone with an OpenTelemetry SDK registered', (name) => {
  it('traces a create under the caller and logs the same trace id; never the token', async () => {
    const spansFile = join(directory(), 'spans.jsonl');
    const server = await spawnServer(traced(runtime(name), spansFile), 'working', {
      OTEL_TEST_SPANS_FILE: spansFile,
      PLANT_STORE_ACCESS_LOG: 'on',
      PLANT_STORE_LOG_FORMAT: 'json',
    });
    try {
      const created = await send(server.baseUrl, {
        path: '/plants',
        headers: {
          authorization: `Bearer ${CONFORMANCE_TOKEN}`,
          'content-type': 'application/json',
          traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
          'x-request-id': 'traced-create',
        },
        body: '{"id":1,"name":"Fern"}',
      });
      expect(created.status).toBe(200);
      const read = (): ExportedSpan[] =>
        existsSync(spansFile)
          ? readFileSync(spansFile, 'utf8')
              .split('\n')
              .filter((line) => line !== '')
              .map((line) => JSON.parse(line) as ExportedSpan)
          : [];
      await until(() => read().filter((span) => span.traceId === TRACE_ID).length === 2, 10_000, `${name}: two spans of the trace exported`);
      await until(() => server.output().includes('"requestId":"traced-create"'), 10_000, `${name}: the access-log line`);
      const spans = read().filter((span) => span.traceId === TRACE_ID);
      const serverSpan = spans.find((span) => span.name === 'POST /plants');
      const storeSpan = spans.find((span) => span.name === 'plant_store insert_if_absent');
      // SpanKind: SERVER is 1, INTERNAL 0.
      expect(serverSpan).toMatchObject({ kind: 1, parentSpanId: CALLER_SPAN });
      expect(serverSpan!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/plants', 'http.response.status_code': 200 });
      expect(storeSpan).toMatchObject({ kind: 0, parentSpanId: serverSpan!.spanId });
      expect(readFileSync(spansFile, 'utf8')).not.toContain(CONFORMANCE_TOKEN);
      const line = server
        .output()
        .split('\n')
        .find((text) => text.includes('"requestId":"traced-create"'));
      expect(JSON.parse(line!)).toMatchObject({ traceId: TRACE_ID, status: 200 });
    } finally {
      await server.close();
    }
  });
});
