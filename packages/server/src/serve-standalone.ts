import type { Served } from './open-served.ts';
import type { StandaloneConfig } from './read-standalone-config.ts';
import { serve, type RunningServer } from './serve.ts';
import { standaloneHandlerOptions } from './standalone-handler-options.ts';

/**
 * {@link serve} as the standalone Node and Deno servers run it: the
 * configured address, log format and access log, over what `served` holds.
 *
 * @param reusePort Whether the port is opened with SO_REUSEPORT, for one of several processes each with its own socket (Deno).
 */
export function serveStandalone(config: StandaloneConfig, served: Served, reusePort = false): Promise<RunningServer> {
  return serve({
    ...standaloneHandlerOptions(config, served.options),
    host: config.host,
    port: config.port,
    logFormat: config.logFormat,
    ...(config.accessLog ? {} : { accessLog: false as const }),
    ...(reusePort ? { reusePort } : {}),
  });
}
