// Runs wherever `@opentelemetry/api` can be imported (Node, Bun, Deno): the handler's tracer, when a provider is registered.
import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { PlantSpan, PlantTracer, RemoteParent, SpanAttributes } from '@plant-store/core';

/** The parts of `@opentelemetry/api` the tracer uses; the module is imported only at run time, and only when installed. */
type Api = typeof import('@opentelemetry/api');

/**
 * The tracer of `@opentelemetry/api` as the handler's `tracer` option takes
 * it, when the package is installed and a tracer provider is registered
 * (an OpenTelemetry SDK started before the server, e.g. with `node --import
 * ./tracing.mjs`); else undefined, and the handler traces nothing and pays
 * nothing. `@opentelemetry/api` is an optional peer dependency: it is
 * imported here, at run time, and nowhere else.
 *
 * @param name The instrumentation scope the spans are reported under.
 * @example
 * const tracer = await loadOpenTelemetryTracer();
 * const running = await serve({ store, authenticate, ...(tracer === undefined ? {} : { tracer }) });
 */
export async function loadOpenTelemetryTracer(name = '@plant-store/server'): Promise<PlantTracer | undefined> {
  let api: Api;
  try {
    const imported = (await import('@opentelemetry/api')) as Api & { readonly default?: Api };
    api = imported.trace === undefined && imported.default !== undefined ? imported.default : imported;
  } catch {
    return undefined;
  }
  const tracer = api.trace.getTracer(name);
  // The API alone answers with a no-op tracer, whose spans carry the all-zero trace id;
  // a registered SDK gives a real one. The probe is never ended, so no exporter sees it.
  if (!api.isSpanContextValid(tracer.startSpan('plant-store: is a tracer provider registered?').spanContext())) return undefined;
  return new OpenTelemetryTracer(api, tracer);
}

/** A span of `@opentelemetry/api` as the handler sees it. */
class OpenTelemetrySpan implements PlantSpan {
  readonly span: Span;
  readonly traceId: string;
  readonly #api: Api;

  constructor(api: Api, span: Span) {
    this.#api = api;
    this.span = span;
    this.traceId = span.spanContext().traceId;
  }

  setAttribute(name: string, value: string | number): void {
    this.span.setAttribute(name, value);
  }

  fail(description: string): void {
    this.span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: description });
  }

  end(): void {
    this.span.end();
  }
}

class OpenTelemetryTracer implements PlantTracer {
  readonly #api: Api;
  readonly #tracer: Tracer;

  constructor(api: Api, tracer: Tracer) {
    this.#api = api;
    this.#tracer = tracer;
  }

  startSpan(name: string, kind: 'server' | 'internal', parent: RemoteParent | PlantSpan | undefined, attributes: SpanAttributes): PlantSpan {
    const api = this.#api;
    let context: Context = api.context.active();
    if (parent instanceof OpenTelemetrySpan) context = api.trace.setSpan(context, parent.span);
    else if (parent !== undefined && 'parentId' in parent) {
      context = api.trace.setSpanContext(context, {
        traceId: parent.traceId,
        spanId: parent.parentId,
        traceFlags: parent.traceFlags,
        isRemote: true,
        ...(parent.traceState === undefined ? {} : { traceState: api.createTraceState(parent.traceState) }),
      });
    }
    const spanKind = kind === 'server' ? api.SpanKind.SERVER : api.SpanKind.INTERNAL;
    return new OpenTelemetrySpan(api, this.#tracer.startSpan(name, { kind: spanKind, attributes }, context));
  }
}
