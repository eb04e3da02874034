// Runs in a standalone server's own process (Node, Bun, Deno), imported by sdk2/register.mjs and
// sdk3/register.mjs: the span exporter both register with their SDK, which appends each ended span
// as one JSON line to the file OTEL_TEST_SPANS_FILE names, for runtime-tests/traces.test.ts to
// read. It imports no SDK, so that one copy serves both majors: the fields it reads are the same
// on an SDK 2 and an SDK 3 span.
import { appendFileSync } from 'node:fs';

/**
 * The parts of an ended span (the `ReadableSpan` of SDK 2 and SDK 3 alike) the test reads.
 *
 * @typedef {object} EndedSpan
 * @property {string} name
 * @property {number} kind
 * @property {() => { traceId: string, spanId: string }} spanContext
 * @property {{ spanId: string }} [parentSpanContext]
 * @property {Record<string, unknown>} attributes
 * @property {{ attributes: Record<string, unknown> }} resource
 */

/**
 * A span exporter that appends every span it is handed to the file `OTEL_TEST_SPANS_FILE`
 * names, one JSON line each: name, kind, trace id, span id, parent span id (or null),
 * attributes, and the SDK's version (its resource's `telemetry.sdk.version`), which tells the
 * test which major made the span. Throws when the variable is unset, so that a server started
 * without it fails at start rather than tracing into nowhere.
 *
 * @example
 * trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spansFileExporter() })] }));
 */
export function spansFileExporter() {
  const file = process.env['OTEL_TEST_SPANS_FILE'];
  if (file === undefined) throw new Error('runtime-tests/tracing: set OTEL_TEST_SPANS_FILE, the file the spans are written to');
  return {
    /**
     * @param {readonly EndedSpan[]} spans
     * @param {(result: { code: 0 }) => void} done
     */
    export(spans, done) {
      for (const span of spans) {
        const { traceId, spanId } = span.spanContext();
        const { name, kind, attributes } = span;
        const parentSpanId = span.parentSpanContext?.spanId ?? null;
        const line = { name, kind, traceId, spanId, parentSpanId, attributes, sdkVersion: span.resource.attributes['telemetry.sdk.version'] };
        appendFileSync(file, `${JSON.stringify(line)}\n`);
      }
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
}
