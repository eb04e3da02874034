// The `@plant-store/server` entry: runs on Node (and on Bun and Deno through their Node compatibility).
export { accessLogLine, batchLines } from './common/access-log.ts';
export { createDrainingFetch } from './fetch/create-draining-fetch.ts';
export { createStandalone } from './fetch/create-standalone.ts';
export { formatAccessLog } from './common/format-access-log.ts';
export { loadOpenTelemetryTracer } from './common/load-open-telemetry-tracer.ts';
export { logUnhandledRejections } from './launcher/log-unhandled-rejections.ts';
export { readStandaloneConfig } from './common/read-standalone-config.ts';
export { runNode } from './node/run-node.ts';
export { serve } from './node-http/serve.ts';
export { SHUTDOWN_TIMINGS } from './common/shutdown-timings.ts';
export { startupLines } from './common/startup-lines.ts';

export type { LineSink } from './common/access-log.ts';
export type { DrainingFetch, DrainingFetchOptions } from './fetch/create-draining-fetch.ts';
export type { BuildOptions } from './common/build-options.ts';
export type { Standalone } from './fetch/create-standalone.ts';
export type { AccessLogEntry } from './common/format-access-log.ts';
export type { LogFormat } from './common/log-format.ts';
export type { StandaloneConfig, StandaloneEnv } from './common/read-standalone-config.ts';
export type { RunningServer, ServeOptions } from './node-http/serve.ts';
export type { TlsPair } from './node-http/serve-node-http.ts';
