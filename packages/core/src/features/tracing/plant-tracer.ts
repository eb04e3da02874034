// Runs anywhere (no runtime API): what the handler asks of a tracer, so that the core imports none.
import type { TraceParent } from './parse-traceparent.ts';

/** A span's attribute values, as the OpenTelemetry semantic conventions give them. */
export type SpanAttributes = Readonly<Record<string, string | number>>;

/** The remote caller a server span continues: a valid `traceparent`, and its `tracestate` when valid. */
export interface RemoteParent extends TraceParent {
  readonly traceState?: string | undefined;
}

/** One span the handler started; it ends it exactly once. */
export interface PlantSpan {
  /** The trace the span belongs to: 32 lowercase hex digits. */
  readonly traceId: string;
  setAttribute(name: string, value: string | number): void;
  /** Marks the span as failed (status `ERROR`), with a short description. */
  fail(description: string): void;
  end(): void;
}

/**
 * Starts the handler's spans: a `server` span per request, continuing the
 * caller's trace when its `traceparent` is valid, and an `internal` span for
 * the store under it. `@plant-store/server` builds one from
 * `@opentelemetry/api` when that is installed and a tracer provider is
 * registered (`loadOpenTelemetryTracer`); the core never imports it.
 */
export interface PlantTracer {
  startSpan(name: string, kind: 'server' | 'internal', parent: RemoteParent | PlantSpan | undefined, attributes: SpanAttributes): PlantSpan;
}
