// Runs in a standalone server's own process, loaded before it (node --import, bun and deno
// --preload): registers the OpenTelemetry JS SDK 2 (`BasicTracerProvider` of
// @opentelemetry/sdk-trace-base, with @opentelemetry/api 1.9) as an operator's tracing setup
// would, exporting each ended span to the file OTEL_TEST_SPANS_FILE names. It lives in this
// project so that SDK 2 and its API resolve from here, whatever the server has installed.
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { spansFileExporter } from '../spans-file.mjs';

trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spansFileExporter())] }));
