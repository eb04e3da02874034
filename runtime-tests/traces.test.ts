// Runs in the test process (Node): the production standalone servers of Node, Bun and Deno with an
// OpenTelemetry SDK registered before them (node --import, bun and deno --preload of
// runtime-tests/tracing/sdk2/register.mjs or sdk3/register.mjs), as docs/operations.md ("Traces")
// says to, once with each SDK major: a create carrying a traceparent is traced in a server span
// under the caller's span and a store span under it, and its JSON access-log line names the same
// trace. The server imports the @opentelemetry/api it has installed (1.9 here); SDK 3 registers
// through the 1.10 its project installs, so its runs also prove that the server sees a provider
// registered by a newer API minor.
import { copyFileSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runtime, spawnServer, temporaryDirectories, type Runtime, type SpawnedServer } from './runtimes.ts';
import { until } from './support/until.ts';

/** Each SDK major's register module, in the workspace project that installs that major, and the major's number. */
const SETUP = {
  'SDK 2': { module: fileURLToPath(new URL('tracing/sdk2/register.mjs', import.meta.url)), major: '2' },
  'SDK 3': { module: fileURLToPath(new URL('tracing/sdk3/register.mjs', import.meta.url)), major: '3' },
} as const;
type Sdk = keyof typeof SETUP;

/** The version of `@opentelemetry/api` that the workspace project at `project` (relative to this file) installs. */
function apiVersion(project: string): string {
  const file = fileURLToPath(new URL(`${project}/node_modules/@opentelemetry/api/package.json`, import.meta.url));
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

// SDK 2 on the oldest Node line and on Bun and Deno; SDK 3 (Node 22.15 or later) on every Node
// line and on Bun and Deno, where it runs too.
const CASES: readonly (readonly [string, Sdk])[] = [
  ['Node 22', 'SDK 2'],
  ['Bun', 'SDK 2'],
  ['Deno', 'SDK 2'],
  ['Node 22', 'SDK 3'],
  ['Node 24', 'SDK 3'],
  ['Node 26', 'SDK 3'],
  ['Bun', 'SDK 3'],
  ['Deno', 'SDK 3'],
];

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
  /** The resource's `telemetry.sdk.version`: which SDK made the span. */
  readonly sdkVersion: string;
}

/** `target` started with `setup` loaded first: Node's `--import`, Bun's and Deno's `--preload` (Deno also let write `spansFile`). */
function traced(target: Runtime, setup: string, spansFile?: string): Runtime {
  if (target.name === 'Deno') {
    const [run, ...rest] = target.production;
    return { ...target, production: [run!, '--preload', setup, ...(spansFile === undefined ? [] : [`--allow-write=${spansFile}`]), ...rest] };
  }
  return { ...target, production: [target.name === 'Bun' ? '--preload' : '--import', setup, ...target.production] };
}

/** Creates plant 1 on `server` under the caller's span `CALLER_SPAN` of trace `TRACE_ID`, with the request id `traced-create`. */
async function tracedCreate(server: SpawnedServer): Promise<void> {
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
}

it("runs the server on an older @opentelemetry/api minor than SDK 3's, so that the SDK 3 runs prove a newer minor's provider is seen", () => {
  // The API's global registration accepts a reader of the same or an older minor than the one
  // that registered; a newer reader sees nothing (a 1.10 API does not read what 1.9 registered).
  const minor = (version: string) => Number(version.split('.')[1]);
  expect(minor(apiVersion('../packages/server'))).toBeLessThan(minor(apiVersion('tracing/sdk3')));
});

describe.each(CASES)('%s standalone with the OpenTelemetry %s registered', (name, sdk) => {
  it('traces a create under the caller and logs the same trace id; never the token', async () => {
    const spansFile = join(directory(), 'spans.jsonl');
    const server = await spawnServer(traced(runtime(name), SETUP[sdk].module, spansFile), 'working', {
      OTEL_TEST_SPANS_FILE: spansFile,
      PLANT_STORE_ACCESS_LOG: 'on',
      PLANT_STORE_LOG_FORMAT: 'json',
    });
    try {
      await tracedCreate(server);
      const read = (): ExportedSpan[] =>
        existsSync(spansFile)
          ? readFileSync(spansFile, 'utf8')
              .split('\n')
              .filter((line) => line !== '')
              .map((line) => JSON.parse(line) as ExportedSpan)
          : [];
      const what = `${name} with ${sdk}`;
      await until(() => read().filter((span) => span.traceId === TRACE_ID).length === 2, 10_000, `${what}: two spans of the trace exported`);
      await until(() => server.output().includes('"requestId":"traced-create"'), 10_000, `${what}: the access-log line`);
      const spans = read().filter((span) => span.traceId === TRACE_ID);
      const serverSpan = spans.find((span) => span.name === 'POST /plants');
      const storeSpan = spans.find((span) => span.name === 'plant_store insert_if_absent');
      // SpanKind: SERVER is 1, INTERNAL 0.
      expect(serverSpan).toMatchObject({ kind: 1, parentSpanId: CALLER_SPAN });
      expect(serverSpan!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/plants', 'http.response.status_code': 200 });
      expect(storeSpan).toMatchObject({ kind: 0, parentSpanId: serverSpan!.spanId });
      for (const span of spans) expect(span.sdkVersion.split('.')[0], `${span.name}: made by ${sdk}`).toBe(SETUP[sdk].major);
      expect(readFileSync(spansFile, 'utf8')).not.toContain(CONFORMANCE_TOKEN);
      const line = server
        .output()
        .split('\n')
        .find((text) => text.includes('"requestId":"traced-create"'));
      expect(JSON.parse(line!)).toMatchObject({ traceId: TRACE_ID, status: 200 });
      expect(server.output()).not.toContain(CONFORMANCE_TOKEN);
    } finally {
      await server.close();
    }
  });
});

it("Node 24 runs the documented SDK 3 setup (docs/snippets/tracing-sdk3.mjs) as pasted: its console exporter prints the create's spans under the caller", async () => {
  // As an operator's install lays it out: tracing.mjs beside a node_modules that holds the API
  // and SDK 3 (here, the SDK 3 project's).
  const project = directory();
  const setup = join(project, 'tracing.mjs');
  copyFileSync(fileURLToPath(new URL('../docs/snippets/tracing-sdk3.mjs', import.meta.url)), setup);
  symlinkSync(fileURLToPath(new URL('tracing/sdk3/node_modules', import.meta.url)), join(project, 'node_modules'), 'dir');
  const server = await spawnServer(traced(runtime('Node 24'), setup), 'working');
  try {
    await tracedCreate(server);
    // The batch processor exports every 5 s; the console exporter prints each span as an object
    // literal, from a `{` alone on its line.
    const printed = () => server.output().split(/^(?=\{$)/m);
    const named = (name: string) => printed().find((block) => block.includes(`name: '${name}'`));
    await until(
      () => named('POST /plants') !== undefined && named('plant_store insert_if_absent') !== undefined,
      15_000,
      'the documented setup: both spans printed',
    );
    const parentOf = (block: string) => /parentSpanContext: \{[^}]*spanId: '([0-9a-f]{16})'/.exec(block)?.[1];
    const serverSpan = named('POST /plants')!;
    expect(serverSpan).toContain(`traceId: '${TRACE_ID}'`);
    expect(serverSpan).toContain("'telemetry.sdk.version': '3.");
    expect(parentOf(serverSpan)).toBe(CALLER_SPAN);
    expect(parentOf(named('plant_store insert_if_absent')!)).toBe(/\bid: '([0-9a-f]{16})'/.exec(serverSpan)?.[1]);
    expect(server.output()).not.toContain(CONFORMANCE_TOKEN);
  } finally {
    await server.close();
  }
});
