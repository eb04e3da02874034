export { accessLogLine, batchLines } from './access-log.ts';
export { createDrainingFetch } from './create-draining-fetch.ts';
export { createStandalone } from './create-standalone.ts';
export { formatAccessLog } from './format-access-log.ts';
export { readStandaloneConfig } from './read-standalone-config.ts';
export { runNode } from './run-node.ts';
export { serve } from './serve.ts';
export { SHUTDOWN_TIMINGS } from './shutdown-timings.ts';
export { startupLines } from './startup-lines.ts';

export type { LineSink } from './access-log.ts';
export type { DrainingFetch, DrainingFetchOptions } from './create-draining-fetch.ts';
export type { BuildOptions } from './build-options.ts';
export type { Standalone } from './create-standalone.ts';
export type { AccessLogEntry } from './format-access-log.ts';
export type { LogFormat, StandaloneConfig, StandaloneEnv } from './read-standalone-config.ts';
export type { RunningServer, ServeOptions } from './serve.ts';
