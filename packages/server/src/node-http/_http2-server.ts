// Runs on Node: the TLS server serveNodeHttp runs when it offers HTTP/2 (h2) by ALPN beside HTTP/1.1.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { constants, createSecureServer, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session, type ServerHttp2Stream } from 'node:http2';
import { performance } from 'node:perf_hooks';

// Streams one HTTP/2 connection may have open at once (RFC 9113 §6.5.2 advises no fewer than 100), so that one
// connection cannot make the server hold more requests than a hundred HTTP/1.1 connections would. A client that
// opens more once it has acknowledged the limit is sent away by nghttp2 (GOAWAY, PROTOCOL_ERROR).
const MAX_CONCURRENT_STREAMS = 100;

// Streams a client may reset (RST_STREAM), at once and then 10 a second; past that its connection is sent away
// (GOAWAY, ENHANCE_YOUR_CALM). A stream opened and reset at once costs the server its request's work but
// the client nothing ("rapid reset", CVE-2023-44487): nghttp2's own limit let ten such connections cost a Node 24
// server +113 to +164 MiB, this one +18 to +45. A client that cancels now and then never comes near it.
const RESET_BURST = 100;

// Header entries (pseudo-headers included) a stream may carry before node:http2 resets it: more than node:http's 1,000
// fields, so that the handler sees and answers such a request.
const MOST_HEADER_LIST_PAIRS = 2048;
const RESETS_PER_SECOND = 10;

/** What serveNodeHttp gives the HTTP/1.1 connections of the server, as node:http takes them. */
export interface Http1Options {
  /** Whether node:http answers a request without `Host` itself (the server answers it, with the Error body). */
  readonly requireHostHeader: boolean;
  /** Most time for a request's head, in ms. */
  readonly headersTimeout: number;
  /** Most time for a whole request, in ms; HTTP/2 streams are held to it too. */
  readonly requestTimeout: number;
  /** How often node:http checks the two above, in ms. */
  readonly connectionsCheckingInterval: number;
  /** The response class of HTTP/1.1 requests. Default node:http's. */
  readonly ServerResponse?: typeof ServerResponse;
}

/** The server, and what ends its HTTP/2 connections, which node:http's own close does not know. */
export interface Http2Server {
  /** A node:http server to everything that handles HTTP/1.1 connections, whose requests its handler gets alike. */
  readonly server: HttpServer;
  /**
   * Tells every HTTP/2 connection, and each that opens from now on, to take
   * no new stream (GOAWAY); each ends once its streams are answered.
   */
  closeSessions(): void;
  /** Ends every HTTP/2 connection at once, streams and all. */
  destroySessions(): void;
  /** A request the server did not hand its handler itself (`CONNECT`, over either protocol), handled as the others. */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** node:http's keep-alive timeout, which node:http2's server does not set for HTTP/1.1 on Node 22 (node/QUIRKS.md, node22-http2-no-keep-alive-timeout). */
const HTTP1_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * An HTTPS server that speaks HTTP/2 to clients that offer it by ALPN
 * (`h2`) and HTTP/1.1 to the others (with `http1`'s timeouts and response
 * class, as node:http's), handing `onRequest` the requests of both: HTTP/2
 * ones through Node's compatibility API, so that one handler serves both.
 *
 * An HTTP/2 connection with no stream open and no frame for `idleTimeoutMs`
 * is closed (node:http's keep-alive timeout for HTTP/1.1). A stream's request
 * must be whole within `http1.requestTimeout`, as on HTTP/1.1, or the stream
 * is answered 408 by `onTimedOut` (or reset once its answer began). A stream
 * whose answer waits on its client for `writeTimeoutMs` (`0`: no bound) is
 * reset and told to `onWriteTimeout`: HTTP/2's flow control keeps the rest of
 * the answer in the server, where the connection's own write timeout cannot
 * see it stall.
 *
 * @param http1 node:http's options, for the HTTP/1.1 connections.
 * @param tls node:tls's options: the pair and the TLS minimum.
 * @param handshakeTimeoutMs How long a TLS handshake may take.
 * @param idleTimeoutMs How long an HTTP/2 connection may stay idle.
 * @param writeTimeoutMs How long a stream's answer may wait on its client.
 * @param onRequest The handler of both protocols' requests.
 * @param onTimedOut Answers a stream whose request did not come whole in time.
 * @param onWriteTimeout Told each stream reset for the write timeout.
 */
export function createHttp2Server(
  http1: Http1Options,
  tls: Record<string, unknown>,
  handshakeTimeoutMs: number,
  idleTimeoutMs: number,
  writeTimeoutMs: number,
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
  onTimedOut: (req: Http2ServerRequest, res: Http2ServerResponse) => void,
  onWriteTimeout: (streams: number) => void,
): Http2Server {
  const sessions = new Set<ServerHttp2Session>();
  let closing = false;
  // Streams this server reset itself: a client is held only to the resets it makes.
  const resetHere = new WeakSet<ServerHttp2Stream>();
  const options = {
    ...tls,
    allowHTTP1: true,
    handshakeTimeout: handshakeTimeoutMs,
    settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS },
    // node:http2 resets a stream of more than 128 header entries, its pseudo-headers among them (124 fields of a
    // request), with no answer (ENHANCE_YOUR_CALM); node:http takes 1,000 fields. The handler refuses what node:http refuses, with its 431 (_http2-head-too-large.ts); what a connection's
    // streams hold meanwhile is bounded by the session's memory (maxSessionMemory, 10 MB).
    maxHeaderListPairs: MOST_HEADER_LIST_PAIRS,
    // Node 24 and 26 read node:http's options for HTTP/1.1 from here (`http1Options`, not in @types/node 22),
    // Node 22 from the properties set below.
    ...http1,
    keepAliveTimeout: HTTP1_KEEP_ALIVE_TIMEOUT_MS,
    http1Options: { ...http1, keepAliveTimeout: HTTP1_KEEP_ALIVE_TIMEOUT_MS },
    ...(http1.ServerResponse === undefined ? {} : { Http1ServerResponse: http1.ServerResponse }),
  };
  const secure = createSecureServer(options);
  Object.assign(secure, {
    requireHostHeader: http1.requireHostHeader,
    headersTimeout: http1.headersTimeout,
    requestTimeout: http1.requestTimeout,
    connectionsCheckingInterval: http1.connectionsCheckingInterval,
    keepAliveTimeout: HTTP1_KEEP_ALIVE_TIMEOUT_MS,
  });
  secure.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    // A client gone or speaking garbage: its connection ends, nothing else does.
    session.on('error', () => {});
    if (closing) session.close();
    let open = 0;
    // Fires once per quiet spell: a connection whose streams are all answered is closed, then ended if it lingers.
    session.setTimeout(idleTimeoutMs, () => {
      if (open > 0) return;
      if (session.closed) session.destroy();
      else session.close();
    });
    let allowance = RESET_BURST;
    let counted = performance.now();
    session.on('stream', (stream: ServerHttp2Stream) => {
      open++;
      stream.once('close', () => {
        open--;
        // Answered, or reset here: not the client's doing. A reset after the answer began counts: a server that
        // answers at once (a 401) has begun every answer by the time the client's reset arrives.
        if (stream.rstCode === constants.NGHTTP2_NO_ERROR || resetHere.has(stream)) return;
        const now = performance.now();
        allowance = Math.min(RESET_BURST, allowance + ((now - counted) / 1000) * RESETS_PER_SECOND) - 1;
        counted = now;
        if (allowance < 0 && !session.destroyed) session.destroy(undefined, constants.NGHTTP2_ENHANCE_YOUR_CALM);
      });
    });
  });
  const handle = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    if (req.httpVersionMajor !== 2) {
      onRequest(req as IncomingMessage, res as ServerResponse);
      return;
    }
    const request = req as Http2ServerRequest;
    const answer = res as Http2ServerResponse;
    const { stream } = request;
    // A request with a body: it must be whole in time. One that ended with its headers already is.
    if (!stream.endAfterHeaders) {
      const deadline = setTimeout(() => {
        const state = stream.state.state;
        if (state === constants.NGHTTP2_STREAM_STATE_HALF_CLOSED_REMOTE || state === constants.NGHTTP2_STREAM_STATE_CLOSED) return;
        if (answer.headersSent) resetHere.add(stream);
        onTimedOut(request, answer);
      }, http1.requestTimeout);
      deadline.unref();
      answer.once('close', () => clearTimeout(deadline));
    }
    if (writeTimeoutMs > 0) {
      // Fires once per quiet spell on the stream; only an answer waiting on its client is cut, not a slow handler or
      // a pause in an upload.
      stream.setTimeout(writeTimeoutMs, () => {
        if (stream.bufferSize === 0 || stream.destroyed) return;
        resetHere.add(stream);
        stream.close(constants.NGHTTP2_CANCEL);
        onWriteTimeout(1);
      });
    }
    onRequest(request as unknown as IncomingMessage, answer as unknown as ServerResponse);
  };
  secure.on('request', handle);
  // `Expect: 100-continue` on either protocol: the handler sends 100 once it reads the body. Any other expectation
  // is ignored (RFC 9110 §10.1.1 allows it): the request gets the answer it would get without it.
  secure.on('checkContinue', handle);
  secure.on('checkExpectation', handle);
  return {
    server: secure as unknown as HttpServer,
    closeSessions() {
      closing = true;
      for (const session of sessions) session.close();
    },
    destroySessions() {
      for (const session of sessions) session.destroy();
    },
    handle: handle as (req: IncomingMessage, res: ServerResponse) => void,
  };
}
