// Runs on Node, on Deno (its node:http) and in the workerd launcher's front: the node:http
// server around any request handler, which serve() and the workerd front run.
import { createServer, Server as HttpServerClass, ServerResponse, STATUS_CODES, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { constants as http2Constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import { Server, type AddressInfo, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { rawHeader } from '@plant-store/adapter-node/internal';
import { parseTraceparent, PROTOCOL_ERRORS, requestIdOf, type PlantResponse, type ProtocolErrorKind } from '@plant-store/core';
import { batchLines } from '../common/access-log.ts';
import { formatAccessLog, type AccessLogEntry } from '../common/format-access-log.ts';
import { writeStdout } from '../common/_write-stdout.ts';
import type { LogFormat } from '../common/log-format.ts';
import { DEFAULT_WRITE_TIMEOUT_MS } from '../common/read-standalone-config.ts';
import { SHUTDOWN_TIMINGS } from '../common/shutdown-timings.ts';
import { recordedRequestId, recordedTraceId, recordRequestId } from './_request-ids.ts';
import { PacedResponse } from './paced-response.ts';
import { createHttp2Server } from './_http2-server.ts';
import { http2HeadTooLarge } from './_http2-head-too-large.ts';

/** The server's own options, as `serve()` and {@link serveNodeHttp} take them. */
export interface ServerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /** Port to listen on; `0` picks a free one. Default 8080. */
  readonly port?: number;
  /** Most time a client may take to send the request headers. Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Most time a client may take to send the whole request. Default 30 s. */
  readonly requestTimeoutMs?: number;
  /**
   * Most time an answer may wait for its client to take any of its bytes: a
   * connection whose answer makes no progress for this long is cut, so that
   * clients that ask and never read cannot hold the server's memory. `0`
   * for no bound. Default 30 s.
   */
  readonly writeTimeoutMs?: number;
  /**
   * Told how many connections were just cut for the write timeout, at most
   * once per check (every quarter of the timeout, at most a second apart).
   * Default: one line on stderr.
   */
  readonly onWriteTimeout?: (connections: number) => void;
  /** On close, how long requests in flight may take before connections are cut. Default 10 s. */
  readonly shutdownTimeoutMs?: number;
  /** Receives one line per request; `false` turns the access log off. Default: stdout. */
  readonly accessLog?: ((line: string) => void) | false;
  /**
   * How access-log lines are written: `text` (`POST /plants 200 0.4ms`) or
   * `json` (one object per line, with the request id when the `requestId`
   * option is on). Default `text`.
   */
  readonly logFormat?: LogFormat;
  /**
   * Opens the port with SO_REUSEPORT, so that other processes doing the same
   * listen on it too and the kernel spreads connections between them (Linux,
   * and Node 22.12+ or Deno). Default `false`.
   */
  readonly reusePort?: boolean;
  /**
   * Serves HTTPS (TLS 1.2 at least) with this certificate and key instead of
   * plain HTTP. A handshake gets `headersTimeoutMs` to finish, as the request
   * head does. Default: plain HTTP.
   */
  readonly tls?: TlsPair;
  /**
   * With `tls`: also serves HTTP/2 to clients that offer it (ALPN `h2`),
   * beside HTTP/1.1, every answer the same; at most 100 streams at once on a
   * connection, and its requests held to the same request timeout. Node
   * only. Default `false`.
   */
  readonly http2?: boolean;
}

/** A certificate, its chain after it, and its private key, in PEM. */
export interface TlsPair {
  /** The certificate, then the intermediate certificates of its chain, in PEM. */
  readonly cert: string | Uint8Array;
  /** The certificate's private key, in PEM, without a passphrase. */
  readonly key: string | Uint8Array;
}

/** A running standalone server. */
export interface RunningServer {
  readonly server: HttpServer;
  /** e.g. `http://127.0.0.1:8080`, or `https://…` with `tls` */
  readonly url: string;
  /**
   * With `tls`: serves new connections with `pair` from now on, those open
   * keeping theirs (a renewed certificate, without a restart). Throws, keeping
   * the pair in use, when `pair` cannot serve (no certificate, no key, or a
   * key that is not the certificate's).
   */
  setTls?(pair: TlsPair): void;
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
 * The server `serve()` runs, around any `node:http` request handler: its
 * timeouts, Error bodies for requests it cannot read, access log and graceful
 * close. The standalone workerd server runs it in front of workerd.
 *
 * @param handler Records the request id of each answer it gives with
 *   `recordRequestId` (from `_request-ids.ts`) before writing it, when answers
 *   carry ids: the access log writes the id recorded.
 * @param requestIds Whether answers carry request ids: the access log writes them, and refusals get one.
 */
export async function serveNodeHttp(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: ServerOptions,
  requestIds: boolean,
): Promise<RunningServer> {
  const { host = '127.0.0.1', port = 8080, shutdownTimeoutMs = SHUTDOWN_TIMINGS.timeoutMs } = options;
  const sink = options.accessLog === undefined ? stdoutLog : options.accessLog;
  const format = formatAccessLog(options.logFormat ?? 'text');
  const log = sink === false ? false : (entry: AccessLogEntry) => sink(format(entry));
  // Only the JSON lines carry the trace id, so only they read it.
  const traced = options.logFormat === 'json';
  const connections = new WeakMap<Socket, Connection>();
  // Nothing is tracked per request: a refusal finds the answers still owed on
  // its connection through Node's own queue (see whenAnswered). Only a request
  // pipelined behind an answer not yet handed to the kernel is counted.
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // Handed over after this connection's refusal was decided, it came later on the connection than what was refused:
    // a head whose timeout ran while its bytes waited unread (a stalled or stopped process) is answered 408 by the
    // timer and then still read. Served, a create answered "not received in time" would be stored.
    const refusal = connections.get(req.socket)?.refusal;
    if (refusal !== undefined && refusal !== 'none') {
      unserved.add(res);
      return;
    }
    if (pipelinedTooDeep(req.socket, res, connections)) return;
    if (log !== false) {
      const started = performance.now();
      res.once('finish', () => {
        // node:http2's compatibility response says 'finish' when its stream closes, answered or not: a request
        // never answered (its client gone first) has no line, as over HTTP/1.1.
        if (!res.headersSent) return;
        log({
          method: req.method ?? '',
          url: req.url ?? '',
          status: res.statusCode,
          ms: performance.now() - started,
          // Recorded by whoever chose it as the answer was written: the core, through the handler, or this server.
          requestId: requestIds ? recordedRequestId(res) : undefined,
          // The span's trace when the handler traced it (a new one without a valid traceparent), else the header's.
          traceId: traced ? (recordedTraceId(res) ?? traceIdOf(req)) : undefined,
        });
      });
    }
    // A head node:http would refuse over HTTP/1.1 gets the same 431 over HTTP/2, where node:http2 takes more.
    if (req.httpVersionMajor === 2 && http2HeadTooLarge(req.rawHeaders)) {
      answerProtocolError(req, res, 'headers-too-large', requestIds);
      return;
    }
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is not a valid request.
    // Node would answer it with a bare 400; this one carries the Error body.
    if (req.httpVersionMinor === 1 && req.httpVersionMajor === 1 && rawHeader(req, 'host') === undefined) {
      res.shouldKeepAlive = false;
      answerProtocolError(req, res, 'malformed-request', requestIds);
      return;
    }
    handler(req, res);
  };
  const writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  const onWriteTimeout = options.onWriteTimeout ?? warnOfCuts(writeTimeoutMs);
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const httpOptions = {
    // Checked above, to answer with the Error body.
    requireHostHeader: false,
    headersTimeout,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    // Node checks both timeouts only this often (30 s by default), which would stretch them.
    connectionsCheckingInterval: 500,
    // Large bodies (the docs script) a slice a turn, so that many at once do not hold up the
    // creates between them; on Node only (deno/QUIRKS.md, deno-immediate-starves-io).
    ...(process.versions['deno'] === undefined ? { ServerResponse: PacedResponse } : {}),
  };
  // node:https is node:http over TLS sockets: the same server, whose connections start once
  // their handshake is done ('secureConnection'), and whose raw TCP sockets the timeouts never see.
  // With HTTP/2, node:http2's server, which hands HTTP/1.1 connections to node:http's own code.
  const http2 =
    options.tls !== undefined && options.http2 === true
      ? createHttp2Server(
          httpOptions,
          tlsOptions(options.tls),
          headersTimeout,
          HTTP2_IDLE_TIMEOUT_MS,
          writeTimeoutMs,
          onRequest,
          (req, res) => answerTimedOutStream(req, res, requestIds),
          onWriteTimeout,
        )
      : undefined;
  const server: HttpServer =
    options.tls === undefined
      ? createServer(httpOptions, onRequest)
      : (http2?.server ??
        (createHttpsServer({ ...httpOptions, ...tlsOptions(options.tls), handshakeTimeout: headersTimeout }, onRequest) as unknown as HttpServer));
  const connectionEvent = options.tls === undefined ? 'connection' : 'secureConnection';
  // A client may shut down its sending side once its request is sent (`nc -N`
  // does; RFC 9112 §9.6: a half-closed connection does not end a request).
  // Node then, by default, aborts the request and ends the connection, so an
  // answer given a turn later never goes out, though a create may already be
  // stored; this way the answers owed are sent first, then the connection
  // ends. (Undocumented in @types/node, read by Node's own socket 'end' handler.)
  (server as HttpServer & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // `Expect: 100-continue`: the handler, not Node, decides when to send 100
  // (once the request is authenticated and its declared size accepted), so a
  // client is never invited to upload a body that will be refused unread.
  if (http2 === undefined) server.on('checkContinue', onRequest);
  // Any other expectation is ignored (RFC 9110 §10.1.1 allows it) instead of
  // Node's bare 417: the request gets the answer it would get without it.
  if (http2 === undefined) server.on('checkExpectation', onRequest);
  // CONNECT: without a listener node:http drops the socket unanswered. It is
  // answered like any other method instead (405 on a route, 404 elsewhere),
  // and the connection, which Node has handed over, is closed after it.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    // Over HTTP/2, CONNECT is a stream like any other, handed over with its response.
    if (http2 !== undefined && req.httpVersionMajor === 2) {
      http2.handle(req, socket as unknown as ServerResponse);
      return;
    }
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once('finish', () => {
      // Bytes the client still sends are read and dropped, so that closing
      // cannot reset the connection under the answer.
      socket.resume();
      socket.end();
      setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS).unref();
    });
    // Node hands the request over unfinished: nothing more belongs to it.
    if (!req.complete) req.complete = true;
    onRequest(req, res);
  });
  server.on(connectionEvent, (socket: Socket) => connections.set(socket, newConnection(log !== false)));
  const stopWriteTimeout = writeTimeoutMs > 0 ? cutStalledWrites(server, connectionEvent, writeTimeoutMs, onWriteTimeout) : () => {};
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    // Over TLS, a connection whose handshake never finished (node:https reports its timeout
    // here) has no HTTP to answer and no request to log: it goes at once.
    if (options.tls !== undefined && !connections.has(socket)) {
      socket.destroy();
      return;
    }
    let connection = connections.get(socket);
    if (connection === undefined) connections.set(socket, (connection = newConnection(log !== false)));
    answerClientError(error, socket, connection, log, requestIds);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ...(options.reusePort === true ? { reusePort: true } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `${options.tls === undefined ? 'http' : 'https'}://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      const deadline = setTimeout(() => {
        http2?.destroySessions();
        closeAllConnections(server);
      }, shutdownTimeoutMs);
      deadline.unref();
      // HTTP/2 clients are told at once to open no new stream; those open are answered.
      http2?.closeSessions();
      // Stop accepting, but not through http.Server#close, which also cuts idle
      // keep-alive connections at once, under clients about to send on them.
      // For a short grace those requests are answered 503 with Connection:
      // close instead; then idle connections are closed.
      Server.prototype.close.call(server, () => {
        clearTimeout(deadline);
        stopWriteTimeout();
        stdoutLog.flush();
        resolve();
      });
      setTimeout(() => server.closeIdleConnections(), Math.min(SHUTDOWN_TIMINGS.graceMs, shutdownTimeoutMs)).unref();
    }));
  if (options.tls === undefined) return { server, url, close };
  const secure = server as unknown as { setSecureContext(options: ReturnType<typeof tlsOptions>): void };
  return { server, url, close, setTls: (pair) => secure.setSecureContext(tlsOptions(pair)) };
}

/** How long an HTTP/2 connection may stay without a frame: node:http's keep-alive timeout for HTTP/1.1. */
const HTTP2_IDLE_TIMEOUT_MS = 5_000;

/** node:http's closeAllConnections, which node:http2's server (HTTP/1.1 beside HTTP/2) lacks but can run. */
function closeAllConnections(server: HttpServer): void {
  HttpServerClass.prototype.closeAllConnections.call(server);
}

/**
 * Answers an HTTP/2 stream whose request did not come whole within the
 * request timeout: 408 (1402) with the Error body, as node:http answers an
 * HTTP/1.1 one (without `Connection: close`, which HTTP/2 has no use for:
 * the other streams go on), or a reset of the stream once its answer began.
 */
function answerTimedOutStream(req: Http2ServerRequest, res: Http2ServerResponse, requestIds: boolean): void {
  if (res.headersSent) {
    res.stream.close(http2Constants.NGHTTP2_CANCEL);
    return;
  }
  // The client never finished its request: its side of the stream is closed here, without an error.
  answerProtocolError(req as unknown as IncomingMessage, res as unknown as ServerResponse, 'request-timeout', requestIds, () =>
    res.stream.close(http2Constants.NGHTTP2_NO_ERROR),
  );
}

/**
 * Answers `req` with the core's Error body for `kind`, its request id recorded for the access log when answers carry
 * ids (the request's own when sane), then `ended` once the answer is written.
 */
function answerProtocolError(req: IncomingMessage, res: ServerResponse, kind: ProtocolErrorKind, requestIds: boolean, ended?: () => void): void {
  const { status, headers, body } = PROTOCOL_ERRORS[kind];
  const id = requestIds ? requestIdOf(rawHeader(req, 'x-request-id')) : undefined;
  if (id !== undefined) recordRequestId(res, id);
  res.writeHead(status, { ...headers, ...(id === undefined ? {} : { 'x-request-id': id }), 'content-length': Buffer.byteLength(body) });
  res.end(body, ended);
}

/** What node:tls takes for `pair`: TLS 1.2 at least (RFC 9325 §3.1.1), Node's own ciphers. */
export function tlsOptions(pair: TlsPair) {
  return { cert: toPem(pair.cert), key: toPem(pair.key), minVersion: 'TLSv1.2' as const };
}

function toPem(value: string | Uint8Array): string | Buffer {
  return typeof value === 'string' ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/**
 * Cuts every connection (each announced by `connectionEvent`) whose answer has made no progress for `timeoutMs`,
 * checking all connections every quarter of the timeout (at most 1 s apart),
 * so a cut comes between `timeoutMs` and `timeoutMs` plus one check late.
 * Progress is any change in the bytes the socket holds or has handed on,
 * libuv's write queue included, so a client that reads slowly but reads is
 * not cut. One sweep rather than a timer per answer: nothing is armed or
 * disarmed per request, and a flood of stalled clients costs one walk.
 * Returns what stops the checks.
 */
function cutStalledWrites(
  server: HttpServer,
  connectionEvent: 'connection' | 'secureConnection',
  timeoutMs: number,
  onCut: (connections: number) => void,
): () => void {
  const stalls = new Map<Socket, { progress: number; since: number }>();
  const sockets = new Set<Socket>();
  server.on(connectionEvent, (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      stalls.delete(socket);
    });
  });
  const check = () => {
    const now = performance.now();
    let cut = 0;
    for (const socket of sockets) {
      if (socket.writableLength === 0 || socket.destroyed) {
        stalls.delete(socket);
        continue;
      }
      const progress = writeProgress(socket);
      const stall = stalls.get(socket);
      if (stall === undefined || stall.progress !== progress) stalls.set(socket, { progress, since: now });
      else if (now - stall.since >= timeoutMs) {
        stalls.delete(socket);
        sockets.delete(socket);
        socket.destroy();
        cut++;
      }
    }
    if (cut > 0) onCut(cut);
  };
  const timer = setInterval(check, Math.min(1_000, Math.max(50, Math.floor(timeoutMs / 4))));
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A number that changes whenever the socket's pending output moves: bytes
 * handed on (`bytesWritten` counts the buffered ones too), minus what libuv
 * still queues (`writeQueueSize`, which falls as the kernel takes a large
 * write piece by piece; absent on Deno, where only whole writes count).
 */
function writeProgress(socket: Socket): number {
  const queued = (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle?.writeQueueSize;
  return socket.bytesWritten - socket.writableLength - (typeof queued === 'number' ? queued : 0);
}

/** The default report of cut connections: one line on stderr per check that cut any. */
function warnOfCuts(timeoutMs: number): (connections: number) => void {
  return (connections) => process.stderr.write(`${writeTimeoutMessage(connections, timeoutMs)}\n`);
}

/**
 * The line that reports connections cut for the write timeout, the same on
 * every runtime that reads it.
 */
export function writeTimeoutMessage(connections: number, timeoutMs: number): string {
  return `plant-store: cut ${connections} connection${connections === 1 ? '' : 's'} whose client took none of its answer for ${timeoutMs} ms (PLANT_STORE_WRITE_TIMEOUT_MS)`;
}

// What Node's parser and timers report, as the failure a client is told about;
// anything else Node cannot parse is not HTTP.
const CLIENT_ERRORS: Readonly<Record<string, ProtocolErrorKind>> = {
  HPE_HEADER_OVERFLOW: 'headers-too-large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request-timeout',
};

/** The core's answer as raw HTTP/1.1 bytes, closing the connection; built once per kind, or with a request id. */
function rawAnswer({ status, headers, body }: PlantResponse, requestId?: string): string {
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (requestId !== undefined) head.push(`x-request-id: ${requestId}`);
  return [...head, `content-length: ${Buffer.byteLength(body)}`, 'connection: close', '', body].join('\r\n');
}
const RAW_ANSWERS: Readonly<Record<ProtocolErrorKind, string>> = {
  'malformed-request': rawAnswer(PROTOCOL_ERRORS['malformed-request']),
  'request-timeout': rawAnswer(PROTOCOL_ERRORS['request-timeout']),
  'headers-too-large': rawAnswer(PROTOCOL_ERRORS['headers-too-large']),
};

/**
 * What serve() knows of one connection, to refuse what Node cannot read
 * without overtaking earlier answers, and to bound what a client that
 * pipelines and never reads can make it hold.
 */
interface Connection {
  /** When it was accepted (performance.now(); kept only with an access log), for a refusal's log line. */
  readonly acceptedAt: number;
  /** Whether a refusal is waiting for earlier answers, or was sent. */
  refusal: 'none' | 'waiting' | 'sent';
  /** Requests taken behind an answer not yet handed to the kernel, whose own answers are not either. */
  pipelined: number;
}

function newConnection(timed: boolean): Connection {
  return { acceptedAt: timed ? performance.now() : 0, refusal: 'none', pipelined: 0 };
}

/**
 * Most answers a connection may have waiting behind one the kernel would not
 * take (docs/contract.md, "Pipelining"). Node parses every request of a read
 * (some 1,800 small ones fit in its 64 KiB) and builds a request and a
 * response for each before anything can pause the socket; a client that
 * pipelines hundreds of requests and reads none of their answers would
 * otherwise have the server keep them all, about 3 KB each, until the write
 * timeout. Such a connection is cut as soon as its answers back up past this
 * depth. A client that reads, however deep it pipelines, is never cut: the
 * kernel takes its answers as they come.
 */
const PIPELINE_DEPTH = 32;

type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Counts `res` when it waits behind an earlier answer, and cuts its
 * connection when more than {@link PIPELINE_DEPTH} do while the kernel takes
 * none of what is sent; true when the connection is cut, so that the request
 * is not handled. Node attaches a connection's responses to its socket one at
 * a time, in order, so a response other than the attached one is queued
 * behind an answer not yet handed to the kernel; a request alone on its
 * connection costs two reads, a pipelined one a counter and a listener.
 */
function pipelinedTooDeep(socket: HttpSocket, res: ServerResponse, connections: WeakMap<Socket, Connection>): boolean {
  if (socket.destroyed) return true;
  const attached = socket._httpMessage;
  if (attached === res || attached == null) return false;
  const connection = connections.get(socket);
  if (connection === undefined) return false;
  connection.pipelined++;
  // Node hands the next answer to the socket in its own 'finish' listener, which runs before this one. An answer that
  // never finishes went with its connection, and the count with it.
  res.once('finish', () => {
    connection.pipelined--;
    cutWhenBackedUp(socket, connection);
  });
  return cutWhenBackedUp(socket, connection);
}

/** Cuts the connection when more than {@link PIPELINE_DEPTH} answers wait behind bytes the kernel would not take. */
function cutWhenBackedUp(socket: Socket, connection: Connection): boolean {
  if (connection.pipelined <= PIPELINE_DEPTH || socket.writableLength === 0 || socket.destroyed) return false;
  socket.destroy();
  return true;
}

/** Once a refusal is sent, how long the client has to read it before the connection is cut. */
const REFUSAL_LINGER_MS = 2_000;

/**
 * Answers a request Node could not read (malformed, headers too large, too
 * slow) with the core's Error body instead of Node's bare status line, then
 * closes, and writes an access-log line for it.
 *
 * Pipelined requests that Node read completely before the unreadable one are
 * answered first, in order: the refusal waits until each of their responses
 * has finished, since a create the store took must reach its client as 200.
 * Only a response to the unreadable request itself is not waited for (it may
 * wait for a body that will never come); when its answer has already begun
 * (a 401 sent before the body), that answer stands and the connection just
 * closes after it.
 */
function answerClientError(
  error: Error & { code?: string },
  socket: Socket,
  connection: Connection,
  log: ((entry: AccessLogEntry) => void) | false,
  requestIds: boolean,
): void {
  // Node reports again each later byte the broken parser meets, and its
  // timers may fire again: one refusal per connection, cut REFUSAL_LINGER_MS
  // after it is sent.
  if (connection.refusal !== 'none') return;
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  connection.refusal = 'waiting';
  whenAnswered(socket, (unreadable) => {
    connection.refusal = 'sent';
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    // No client may hold the connection open after it, whatever it does.
    setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS).unref();
    if (unreadable?.headersSent === true) {
      socket.end();
      return;
    }
    const kind = CLIENT_ERRORS[error.code ?? ''] ?? 'malformed-request';
    // The core never answered this request, so the refusal's id is chosen here, as the core would choose it.
    const requestId = requestIds ? requestIdOf(unreadable === undefined ? undefined : rawHeader(unreadable.req, 'x-request-id')) : undefined;
    socket.end(requestId === undefined ? RAW_ANSWERS[kind] : rawAnswer(PROTOCOL_ERRORS[kind], requestId));
    if (log !== false) {
      const { status } = PROTOCOL_ERRORS[kind];
      const ms = performance.now() - connection.acceptedAt;
      log({
        method: unreadable?.req.method,
        url: unreadable?.req.url,
        status,
        ms,
        requestId,
        traceId: unreadable === undefined ? undefined : traceIdOf(unreadable.req),
      });
    }
  });
}

/** Responses to requests node:http handed over after their connection's refusal was decided: never written. */
const unserved = new WeakSet<ServerResponse>();

/**
 * Calls `then` once every response to a completely received request on the
 * connection has finished (or closed), with the response to the request Node
 * could not finish reading, when its head was read. Node attaches a
 * connection's responses to its socket one at a time, in order, the next one
 * in its own 'finish' listener, which runs before this one: so the attached
 * response is always the oldest answer still owed.
 */
function whenAnswered(socket: Socket, then: (unreadable: ServerResponse | undefined) => void): void {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
  // A request read after the refusal was decided is owed nothing.
  if (current !== undefined && unserved.has(current)) {
    then(undefined);
    return;
  }
  if (current === undefined || current.destroyed || !current.req.complete) {
    then(current !== undefined && !current.destroyed ? current : undefined);
    return;
  }
  let done = false;
  const next = () => {
    if (done) return;
    done = true;
    current.off('finish', next);
    current.off('close', next);
    whenAnswered(socket, then);
  };
  current.once('finish', next);
  current.once('close', next);
}

/** The trace id of the request's `traceparent`, when it is valid (W3C Trace Context). */
function traceIdOf(req: IncomingMessage): string | undefined {
  return parseTraceparent(rawHeader(req, 'traceparent'))?.traceId;
}

const stdoutLog = batchLines((text) => writeStdout(`${text}\n`));
