import { Agent, request } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';
import { connect as connectHttp2 } from 'node:http2';

/** A response as the suite sees it: status, lowercase headers, body text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/**
 * A step between body chunks: runs before the next chunk is written, e.g. a
 * pause, or a signal sent to the server while the request is in flight.
 */
export type BetweenChunks = () => void | Promise<void>;

/** What to send; `body` chunks are written one by one, without `Content-Length` when `chunked`. */
export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | string[]>>;
  readonly body?: string | Uint8Array | readonly (string | Uint8Array | BetweenChunks)[];
  readonly chunked?: boolean;
  /** The agent to send on: for an `https:` base URL, one from {@link keepAliveAgent} (or an `https.Agent`). */
  readonly agent?: Agent;
  /** For an `https:` base URL: the certificate authority, in PEM, to trust instead of the system's. */
  readonly ca?: string;
  /**
   * For an `https:` base URL: over HTTP/2 (node:http2, ALPN `h2`) rather than
   * HTTP/1.1, on a connection of its own, closed once answered; `agent` is
   * not used. Headers HTTP/2 forbids (`Connection`, `Transfer-Encoding`…)
   * must not be given; `Host` becomes `:authority`.
   */
  readonly http2?: boolean;
}

/**
 * A keep-alive agent for `baseUrl`'s scheme: `node:https`'s, trusting `ca`
 * when given, for `https:`; `node:http`'s otherwise.
 */
export function keepAliveAgent(baseUrl: string, options: { readonly maxSockets: number; readonly ca?: string | undefined }): Agent {
  const settings = { keepAlive: true, maxSockets: options.maxSockets };
  return new URL(baseUrl).protocol === 'https:' ? new TlsAgent(options.ca === undefined ? settings : { ...settings, ca: options.ca }) : new Agent(settings);
}

/**
 * Sends one request over a real socket with `node:http` (not fetch, which
 * would tidy headers and bodies), or `node:https` for an `https:` base URL,
 * and resolves with the answer. A server that
 * answers early and closes while the body is still being written (413, 401)
 * is fine once the answer is in: the answer counts, the write error does not.
 */
export function send(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const chunks = options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (!options.chunked) {
    let length = 0;
    for (const chunk of chunks) {
      if (typeof chunk !== 'function') length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    }
    headers['content-length'] = String(length);
  }
  if (options.http2 === true) return sendHttp2(url, options, chunks, headers);
  // A keep-alive agent of its own rather than `agent: false`, which would send
  // `Connection: close` (adapter-node's lingering.test.ts covers that case).
  const agent = options.agent ?? keepAliveAgent(baseUrl, { maxSockets: 1, ca: options.ca });
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = (secure ? tlsRequest : request)(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'POST',
        path: `${url.pathname.replace(/\/$/, '')}${options.path}`,
        headers,
        agent,
        ...(secure && options.ca !== undefined ? { ca: options.ca } : {}),
      },
      (res) => {
        answered = true;
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        if (options.agent === undefined) res.on('end', () => agent.destroy());
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    let wake = () => {};
    req.on('drain', () => wake());
    req.on('close', () => wake());
    const writeAll = async () => {
      for (const chunk of chunks) {
        if (req.destroyed || answered) return;
        if (typeof chunk === 'function') {
          await chunk();
          continue;
        }
        if (!req.write(chunk)) await new Promise<void>((done) => (wake = done));
      }
      req.end();
    };
    // With `Expect: 100-continue` the body waits for the server's go-ahead, and
    // is never sent when the answer (a 413, a 401) comes first.
    const expectsContinue = Object.entries(headers).some(([name, value]) => name.toLowerCase() === 'expect' && String(value).toLowerCase() === '100-continue');
    if (expectsContinue) req.once('continue', () => void writeAll().catch(() => {}));
    else void writeAll().catch(() => {});
  });
}

/** {@link send} over HTTP/2: one stream on a connection of its own. */
function sendHttp2(
  url: URL,
  options: RawRequest,
  chunks: readonly (string | Uint8Array | BetweenChunks)[],
  given: Record<string, string | string[]>,
): Promise<RawResponse> {
  const headers: Record<string, string | string[]> = {
    ':method': options.method ?? 'POST',
    ':path': `${url.pathname.replace(/\/$/, '')}${options.path}`,
  };
  for (const [name, value] of Object.entries(given)) {
    if (name.toLowerCase() === 'host') headers[':authority'] = value;
    else headers[name.toLowerCase()] = value;
  }
  const session = connectHttp2(url.origin, options.ca === undefined ? {} : { ca: options.ca });
  return new Promise<RawResponse>((resolve, reject) => {
    let answered = false;
    let status = 0;
    let head: Record<string, string | string[] | undefined> = {};
    const parts: Buffer[] = [];
    session.on('error', (error) => {
      if (!answered) reject(error);
    });
    const stream = session.request(headers, { endStream: chunks.length === 0 });
    stream.on('response', (received) => {
      answered = true;
      status = Number(received[':status']);
      head = Object.fromEntries(Object.entries(received).filter(([name]) => !name.startsWith(':')));
    });
    let ended = false;
    stream.on('data', (part: Buffer) => parts.push(part));
    stream.on('end', () => {
      ended = true;
      // Answered before the whole body was sent (a 413, a 401): stop sending, as curl does, rather than hold the
      // stream open (and the connection, whose close waits for it) until the server's timeout. The connection is this
      // request's alone, and ended at once: a stream closed here would first be ended short of its Content-Length,
      // which the server refuses as a protocol error.
      if (!stream.writableEnded) session.destroy();
      resolve({ status, headers: head, body: Buffer.concat(parts).toString('utf8') });
    });
    stream.on('error', (error) => {
      if (!answered) reject(error);
    });
    // A stream reset after its headers, or a connection gone, ends without 'end': that is a failure, not a wait.
    stream.on('close', () => {
      session.close();
      if (!ended) reject(new Error(`the HTTP/2 stream closed before its answer ended (RST_STREAM ${stream.rstCode})`));
    });
    if (chunks.length === 0) return;
    void (async () => {
      for (const chunk of chunks) {
        if (stream.destroyed || answered) return;
        if (typeof chunk === 'function') {
          await chunk();
          continue;
        }
        if (!stream.write(chunk)) await new Promise<void>((done) => stream.once('drain', done));
      }
      stream.end();
    })().catch(() => {});
  }).finally(() => session.close());
}
