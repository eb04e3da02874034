// Runs anywhere (no runtime API): the `tracer` option: a server span per request and a span per store call.
import type { Feature } from '../../exchange/feature.ts';
import type { PlantTracer } from './plant-tracer.ts';
import { SpanWatch } from './span-watch.ts';

/** The handler's `tracer` option, as `PlantHandlerOptions` has it. */
export interface TracerOption {
  /**
   * Starts a server span per request and a span for the store under it,
   * continuing the caller's trace from a valid `traceparent`; never with the
   * token. `@plant-store/server`'s `loadOpenTelemetryTracer` makes one from
   * `@opentelemetry/api`. Default: none, and nothing is traced.
   */
  readonly tracer?: PlantTracer | undefined;
}

/**
 * The `tracer` option: each request's server span, named by its route
 * template, continuing the caller's trace when its `traceparent` is valid,
 * and the store call's span under it; the trace id goes to the adapter's
 * access log and to `onError`.
 */
export const tracingFeature: Feature<'tracer', TracerOption> = {
  option: 'tracer',
  resolve(given, { caller, basePath }) {
    if (given === undefined) return undefined;
    if (typeof (given as Partial<PlantTracer> | null)?.startSpan !== 'function') throw new TypeError(`${caller}: \`tracer\` must be a PlantTracer`);
    const tracer = given as PlantTracer;
    return { watch: (request, route, requestId) => new SpanWatch(tracer, basePath, request, route, requestId) };
  },
};
