// Runs on Node: the TLS server serveNodeHttp runs when it offers HTTP/2 (h2) by ALPN beside HTTP/1.1.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { constants, createSecureServer, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session, type ServerHttp2Stream } from 'node:http2';
import { performance } from 'node:perf_hooks';

/**
 * Streams one HTTP/2 connection may have open at once (RFC 9113 §6.5.2
 * advises no fewer than 100): a stream past it is refused (`REFUSED_STREAM`),
 * which a client retries, so that one connection cannot make the server hold
 * more requests than a hundred HTTP/1.1 connections would.
 */
export const MAX_CONCURRENT_STREAMS = 100;

/**
 * Streams a client may reset before their answer (RST_STREAM), at once and
 * then 10 a second: past it, its connection is sent away (GOAWAY,
 * ENHANCE_YOUR_CALM) and closed. A stream opened and reset at once costs the
 * server its request's work but the client nothing ("rapid reset",
 * CVE-2023-44487); a client that cancels now and then never comes near it.
 */
export const RESET_BURST = 100;
const RESETS_PER_SECOND = 10;

/** What serveNodeHttp gives the HTTP/1.1 connections of the server, as node:http takes them. */
export interface Http1Options {
  readonly requireHostHeader: boolean;
  readonly headersTimeout: number;
  readonly requestTimeout: number;
  readonly connectionsCheckingInterval: number;
  readonly ServerResponse?: typeof ServerResponse;
}

/** The server, and what ends its HTTP/2 connections, which node:http's own close does not know. */
export interface Http2Server {
  /** A node:http server to everything that handles HTTP/1.1 connections, whose requests its handler gets alike. */
  readonly server: HttpServer;
  /** Tells every HTTP/2 connection to take no new stream (GOAWAY); each ends once its streams are answered. */
  closeSessions(): void;
  /** Ends every HTTP/2 connection at once, streams and all. */
  destroySessions(): void;
}

/**
 * An HTTPS server that speaks HTTP/2 to clients that offer it by ALPN
 * (`h2`) and HTTP/1.1 to the others (with `http1`'s timeouts and response
 * class, as node:http's), handing `onRequest` the requests of both: HTTP/2
 * ones through Node's compatibility API, so that one handler serves both.
 *
 * HTTP/2 connections are idle-closed after `idleTimeoutMs` without a frame
 * (node:http's keep-alive timeout for HTTP/1.1); a stream's request must be
 * whole within `http1.requestTimeout`, as on HTTP/1.1, or the stream is
 * answered 408 by `onTimedOut` (or reset once its answer began); a stream
 * on which nothing moves for `writeTimeoutMs` (`0`: no bound) is reset: its
 * client stopped reading, and HTTP/2's flow control keeps the rest of the
 * answer in the server, out of the connection's sight, so the connection's
 * own write timeout never sees it stall.
 *
 * @param tls node:tls's options: the pair and the TLS minimum.
 * @param handshakeTimeoutMs How long a TLS handshake may take.
 * @param onTimedOut Answers a stream whose request did not come whole in time.
 */
export function createHttp2Server(
  http1: Http1Options,
  tls: Record<string, unknown>,
  handshakeTimeoutMs: number,
  idleTimeoutMs: number,
  writeTimeoutMs: number,
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
  onTimedOut: (req: Http2ServerRequest, res: Http2ServerResponse) => void,
): Http2Server {
  const sessions = new Set<ServerHttp2Session>();
  const options = {
    ...tls,
    allowHTTP1: true,
    handshakeTimeout: handshakeTimeoutMs,
    settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS },
    // Node 24 and 26 read node:http's options for HTTP/1.1 from here (`http1Options`, not in @types/node 22),
    // Node 22 from the properties set below.
    ...http1,
    http1Options: http1,
    ...(http1.ServerResponse === undefined ? {} : { Http1ServerResponse: http1.ServerResponse }),
  };
  const secure = createSecureServer(options);
  Object.assign(secure, {
    requireHostHeader: http1.requireHostHeader,
    headersTimeout: http1.headersTimeout,
    requestTimeout: http1.requestTimeout,
    connectionsCheckingInterval: http1.connectionsCheckingInterval,
  });
  secure.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    // A client gone or speaking garbage: its connection ends, nothing else does.
    session.on('error', () => {});
    session.setTimeout(idleTimeoutMs, () => {
      if (session.closed) session.destroy();
      else session.close();
    });
    let allowance = RESET_BURST;
    let counted = performance.now();
    session.on('stream', (stream: ServerHttp2Stream) =>
      stream.once('close', () => {
        // Reset, by the client (or, for a request that timed out, by this server), rather than answered.
        if (stream.rstCode === constants.NGHTTP2_NO_ERROR) return;
        const now = performance.now();
        allowance = Math.min(RESET_BURST, allowance + ((now - counted) / 1000) * RESETS_PER_SECOND) - 1;
        counted = now;
        if (allowance >= 0 || session.destroyed) return;
        session.destroy(undefined, constants.NGHTTP2_ENHANCE_YOUR_CALM);
      }),
    );
  });
  const handle = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    if (req.httpVersionMajor !== 2) {
      onRequest(req as IncomingMessage, res as ServerResponse);
      return;
    }
    const stream = req as Http2ServerRequest;
    const answer = res as Http2ServerResponse;
    const deadline = setTimeout(() => {
      if (!stream.complete) onTimedOut(stream, answer);
    }, http1.requestTimeout);
    deadline.unref();
    answer.once('close', () => clearTimeout(deadline));
    if (writeTimeoutMs > 0) stream.stream.setTimeout(writeTimeoutMs, () => stream.stream.close(constants.NGHTTP2_CANCEL));
    onRequest(stream as unknown as IncomingMessage, answer as unknown as ServerResponse);
  };
  secure.on('request', handle);
  // `Expect: 100-continue` on either protocol: the handler sends 100 once it reads the body.
  secure.on('checkContinue', handle);
  return {
    server: secure as unknown as HttpServer,
    closeSessions() {
      for (const session of sessions) session.close();
    },
    destroySessions() {
      for (const session of sessions) session.destroy();
    },
  };
}
