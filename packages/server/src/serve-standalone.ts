import type { Served } from './open-served.ts';
import type { StandaloneConfig } from './read-standalone-config.ts';
import { serve, type RunningServer } from './serve.ts';
import { standaloneHandlerOptions } from './standalone-handler-options.ts';

/**
 * {@link serve} as the standalone Node and Deno servers run it: the
 * configured address, log format and access log, over what `served` holds.
 */
export function serveStandalone(config: StandaloneConfig, served: Served): Promise<RunningServer> {
  return serve({
    ...standaloneHandlerOptions(config, served.options),
    host: config.host,
    port: config.port,
    logFormat: config.logFormat,
    ...(config.accessLog ? {} : { accessLog: false as const }),
  });
}
