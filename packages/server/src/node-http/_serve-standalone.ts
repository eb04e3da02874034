// Runs in the Node and Deno launchers (Deno's node:http), and in each of their worker processes.
import { explainListenError } from '../common/_explain-listen-error.ts';
import type { Served } from '../launcher/_open-served.ts';
import type { StandaloneConfig } from '../common/read-standalone-config.ts';
import { serve, type RunningServer } from './serve.ts';
import type { TlsPair } from './serve-node-http.ts';
import { reportWriteTimeouts } from './report-write-timeouts.ts';
import { standaloneHandlerOptions } from '../common/_standalone-handler-options.ts';

/**
 * {@link serve} as the standalone Node and Deno servers run it: the
 * configured address, log format and access log (written at level `info`,
 * so not below it), over what `served` holds.
 * A listen that fails rejects with the error {@link explainListenError} gives,
 * naming `HOST` or `PORT` and what to do.
 *
 * @param reusePort Whether the port is opened with SO_REUSEPORT, for one of several processes each with its own socket (Deno).
 * @param tls The certificate and key to serve HTTPS with (Node and Deno), read from `config.tls`'s files.
 */
export function serveStandalone(config: StandaloneConfig, served: Served, reusePort = false, tls?: TlsPair): Promise<RunningServer> {
  return serve({
    ...standaloneHandlerOptions(config, served.options),
    host: config.host,
    port: config.port,
    logFormat: config.logFormat,
    writeTimeoutMs: config.writeTimeoutMs,
    onWriteTimeout: reportWriteTimeouts(config),
    ...(config.accessLog ? {} : { accessLog: false as const }),
    ...(reusePort ? { reusePort } : {}),
    // HTTP/2 beside HTTP/1.1 on Node; not on Deno, whose node:http2 holds what hostile clients leave
    // (deno/QUIRKS.md, deno-http2-unbounded-memory).
    ...(tls === undefined ? {} : { tls, http2: process.versions['deno'] === undefined }),
  }).catch((error: unknown) => {
    throw explainListenError(error, config.host, config.port);
  });
}
