import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { accessLogLine } from '@plant-store/core';
import { createNodeHandler, type NodeHandlerOptions } from './create-node-handler.ts';

/** Options of {@link serve}: the handler's options plus the server's own. */
export interface ServeOptions extends NodeHandlerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /** Port to listen on; `0` picks a free one. Default 8080. */
  readonly port?: number;
  /** Most time a client may take to send the request headers. Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Most time a client may take to send the whole request. Default 30 s. */
  readonly requestTimeoutMs?: number;
  /** On close, how long requests in flight may take before connections are cut. Default 10 s. */
  readonly shutdownTimeoutMs?: number;
  /** Receives one line per request; `false` turns the access log off. Default: stdout. */
  readonly accessLog?: ((line: string) => void) | false;
}

/** A running standalone server. */
export interface RunningServer {
  readonly server: Server;
  /** e.g. `http://127.0.0.1:8080` */
  readonly url: string;
  /**
   * Stops accepting connections, answers requests in flight (with
   * `Connection: close`), closes idle keep-alive connections and resolves
   * once every connection is gone, or cut after `shutdownTimeoutMs`.
   */
  close(): Promise<void>;
}

/**
 * Starts a standalone `node:http` server for Plant Store, with the timeouts
 * that keep slow clients from holding connections, an access log and a
 * graceful close.
 *
 * @example
 * const running = await serve({
 *   port: 8080,
 *   store: createMemoryStore(),
 *   authenticate: staticTokens(['s3cret-token']),
 * });
 * process.once('SIGTERM', () => running.close().then(() => process.exit(0)));
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { host = '127.0.0.1', port = 8080, shutdownTimeoutMs = 10_000 } = options;
  const handler = createNodeHandler(options);
  const log = options.accessLog === undefined ? writeStdout : options.accessLog;
  const server = createServer(
    { headersTimeout: options.headersTimeoutMs ?? 10_000, requestTimeout: options.requestTimeoutMs ?? 30_000 },
    log === false
      ? handler
      : (req, res) => {
          const started = performance.now();
          res.once('finish', () => log(accessLogLine(req.method ?? '', req.url ?? '', res.statusCode, performance.now() - started)));
          handler(req, res);
        },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      const deadline = setTimeout(() => server.closeAllConnections(), shutdownTimeoutMs);
      deadline.unref();
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    }));
  return { server, url, close };
}

function writeStdout(line: string): void {
  process.stdout.write(`${line}\n`);
}
