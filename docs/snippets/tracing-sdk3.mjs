// tracing.mjs: the OpenTelemetry JS SDK 3, registered before the standalone server starts,
// with `npm install @opentelemetry/api@1.10 @opentelemetry/sdk-trace@3` (Node 22.15 or later):
//   node --import ./tracing.mjs node_modules/@plant-store/server/bin/plant-store.js
import { trace } from '@opentelemetry/api';
import { BatchSpanProcessor, ConsoleSpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';

// The console exporter prints each batch of spans; put your collector's exporter in its place.
const exporter = new ConsoleSpanExporter();
trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] }));
