// Runs anywhere (no runtime API): the `tracer` feature (the default export, which features.ts registers) and its public surface, which the core exports.
export { tracingFeature as default } from './tracing-feature.ts';
export { isTracestate, parseTraceparent } from './parse-traceparent.ts';
export type { TraceParent } from './parse-traceparent.ts';
export type { PlantSpan, PlantTracer, RemoteParent, SpanAttributes } from './plant-tracer.ts';
