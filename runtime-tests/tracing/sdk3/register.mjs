// Runs in a standalone server's own process, loaded before it (node --import, bun and deno
// --preload): registers the OpenTelemetry JS SDK 3 (`TracerProvider` of @opentelemetry/sdk-trace,
// with @opentelemetry/api 1.10) as an operator's tracing setup would, exporting each ended span
// to the file OTEL_TEST_SPANS_FILE names. It lives in this project so that SDK 3 and its API
// resolve from here: the server imports the API it has installed itself (1.9 in this
// repository), and reads the provider this one registered through the API's global.
import { trace } from '@opentelemetry/api';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { spansFileExporter } from '../spans-file.mjs';

trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spansFileExporter() })] }));
