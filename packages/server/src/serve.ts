import { createServer, STATUS_CODES, type Server as HttpServer, type ServerResponse } from 'node:http';
import { Server, type AddressInfo, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createNodeHandler, type NodeHandlerOptions } from '@plant-store/adapter-node';
import { PROTOCOL_ERRORS, type PlantResponse, type ProtocolErrorKind } from '@plant-store/core';
import { accessLogLine, batchLines } from './access-log.ts';
import { SHUTDOWN_TIMINGS } from './shutdown-timings.ts';

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
  readonly server: HttpServer;
  /** e.g. `http://127.0.0.1:8080` */
  readonly url: string;
  /**
   * Stops accepting connections, answers requests in flight (with
   * `Connection: close`) and requests that arrive on kept-alive connections
   * within `SHUTDOWN_TIMINGS.graceMs` (503, `Connection: close`), then closes idle
   * connections; resolves once every connection is gone, or all are cut
   * after `shutdownTimeoutMs`.
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
  const { host = '127.0.0.1', port = 8080, shutdownTimeoutMs = SHUTDOWN_TIMINGS.timeoutMs } = options;
  const handler = createNodeHandler(options);
  const log = options.accessLog === undefined ? stdoutLog : options.accessLog;
  const server = createServer(
    {
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      // Node checks both timeouts only this often (30 s by default), which would stretch them.
      connectionsCheckingInterval: 500,
    },
    log === false
      ? handler
      : (req, res) => {
          const started = performance.now();
          res.once('finish', () => log(accessLogLine(req.method ?? '', req.url ?? '', res.statusCode, performance.now() - started)));
          handler(req, res);
        },
  );
  server.on('clientError', answerClientError);
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
      // Stop accepting, but not through http.Server#close, which also cuts idle
      // keep-alive connections at once, under clients about to send on them.
      // For a short grace those requests are answered 503 with Connection:
      // close instead; then idle connections are closed.
      Server.prototype.close.call(server, () => {
        clearTimeout(deadline);
        stdoutLog.flush();
        resolve();
      });
      setTimeout(() => server.closeIdleConnections(), Math.min(SHUTDOWN_TIMINGS.graceMs, shutdownTimeoutMs)).unref();
    }));
  return { server, url, close };
}

// What Node's parser and timers report, as the failure a client is told about;
// anything else Node cannot parse is not HTTP.
const CLIENT_ERRORS: Readonly<Record<string, ProtocolErrorKind>> = {
  HPE_HEADER_OVERFLOW: 'headers-too-large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request-timeout',
};

/** The core's answer as raw HTTP/1.1 bytes, closing the connection; built once per kind. */
function rawAnswer({ status, headers, body }: PlantResponse): string {
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return [...head, `content-length: ${Buffer.byteLength(body)}`, 'connection: close', '', body].join('\r\n');
}
const RAW_ANSWERS: Readonly<Record<ProtocolErrorKind, string>> = {
  'malformed-request': rawAnswer(PROTOCOL_ERRORS['malformed-request']),
  'request-timeout': rawAnswer(PROTOCOL_ERRORS['request-timeout']),
  'headers-too-large': rawAnswer(PROTOCOL_ERRORS['headers-too-large']),
};

/**
 * Answers a request Node could not read (malformed, headers too large, too
 * slow) with the core's Error body instead of Node's bare status line, then closes.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  const response = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent === true) {
    socket.destroy();
    return;
  }
  socket.end(RAW_ANSWERS[CLIENT_ERRORS[error.code ?? ''] ?? 'malformed-request']);
}

const stdoutLog = batchLines((text) => process.stdout.write(`${text}\n`));
