// Runs on Node, in the standalone workerd launcher's front: a workaround of workerd's own HTTP server
// (record and deletion set: workerd/QUIRKS.md, workerd-http-server).
import { Agent, request, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { asksToUpgrade, endAfterBody, isServerClosing, rawHeader } from '@plant-store/adapter-node/internal';
import { errorResponse, PROTOCOL_ERRORS, requestIdOf, routePath, type PlantResponse } from '@plant-store/core';
import { recordRequestId } from '../node-http/_request-ids.ts';
import { CLOSE_MARK, FRONT_MARK, HEAD_MARK } from './_front-marks.ts';
import { mergeExpositions } from './_merge-expositions.ts';

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1), and `Expect`, answered here: neither
 * is passed on. Nor is the client's framing: the body goes on with its own
 * `Content-Length` ({@link gatherBody}). Headers the client names in
 * `Connection` are hop-by-hop too ({@link connectionOptions}).
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);

/**
 * Headers a client could send to pass for another address, or to speak for a
 * proxy it is not, none of which the Worker may believe: credentials meant for
 * a proxy (`Proxy-Authorization`, RFC 9110 §11.7.2; this front is none), and
 * the address headers a Worker reads behind Cloudflare or a proxy. The front
 * drops the client's and sets {@link PEER_HEADERS} to the real peer itself.
 */
const NOT_FROM_CLIENTS = new Set([
  FRONT_MARK,
  HEAD_MARK,
  'proxy-authorization',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'true-client-ip',
]);

/** The headers that carry the client's address to the Worker, as Cloudflare and common proxies name it: each set to the peer's address. */
const PEER_HEADERS = ['cf-connecting-ip', 'x-forwarded-for', 'x-real-ip'] as const;

/**
 * The methods the Worker serves (every route of the contract). Any other is
 * answered here (405 on a route, 404 elsewhere) by the same handler: workerd
 * knows a fixed list of methods and would answer others, `M-SEARCH` among
 * them, with a plain-text 501.
 */
const WORKER_METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

/** How often a request that failed on a reused connection to workerd is sent again. */
const MAX_RETRIES = 2;

/** At most this many connections to workerd: a flood of clients waits here, it cannot exhaust workerd's descriptors. */
const MAX_UPSTREAM_CONNECTIONS = 256;

/**
 * How long the front waits for the Worker's whole answer, from the moment it
 * has the request's whole body: past every bound the Worker keeps by itself
 * (a JWKS fetch of 5 s, then the store's 5 to 7.5 s), so that only a workerd
 * that has stopped running (SIGSTOP, a host frozen in a debugger, a
 * scheduler starving it) meets it. Its requests are then answered
 * {@link WORKER_UNAVAILABLE} rather than never.
 */
export const WORKER_ANSWER_TIMEOUT_MS = 15_000;

/** The answer when workerd cannot be reached (it is being started again), fails mid-answer, or does not answer in time. */
export const WORKER_UNAVAILABLE: PlantResponse = errorResponse(
  'storage-unavailable',
  'the Worker did not answer; retrying with the same id, name and tag is safe',
);

/** Options of {@link proxyToWorker}. */
export interface ProxyOptions {
  /**
   * Whether the Worker serves the API reference page: its files are then answered by
   * `answerLocally` too ({@link isDocsRequest}), from the one copy the core keeps of each.
   */
  readonly docs?: boolean;
  /**
   * How long the Worker may take to answer a request whose body the front has
   * ({@link WORKER_ANSWER_TIMEOUT_MS}); past it, the request to workerd is cut and the client
   * answered 503 (1501).
   */
  readonly answerTimeoutMs?: number;
  /**
   * What `answerLocally` counted, as Prometheus text, when it counts: a scrape of the Worker's
   * `/metrics` that it answers 200 gets it added ({@link mergeExpositions}), so that the scrape
   * counts every answer of the server.
   */
  readonly frontMetrics?: () => string;
  /**
   * Told the status of each answer the Worker gives to a create (`POST`) and to `GET` or `HEAD`
   * of `/readyz`, with which of the two it was: what the launcher watches for a store that stays
   * broken (_stuck-store-watch.ts).
   */
  readonly onStoreAnswer?: (status: number, readiness: boolean) => void;
  /**
   * Asked of the same answers as {@link onStoreAnswer}, as each is about to be passed on: an answer
   * to give in its place (its status, its Error body, the Worker's other headers kept: the request
   * id, CORS), or undefined to pass the Worker's on. What the launcher judges D1's answers by
   * (_d1-file-watch.ts).
   */
  readonly overrule?: (status: number, readiness: boolean) => PlantResponse | undefined;
}

/**
 * Where the front sends a request, as {@link WorkerProxy.sort} finds it once
 * on its arrival, from one route lookup:
 * - `local`: to `answerLocally` (methods no route of the Worker has, the docs
 *   files when the Worker serves them, anything but a scrape once the front
 *   drains);
 * - `scrape`: to the Worker, past the overload bound, with the front's counts
 *   added to its answer (`GET` or `HEAD` of `/metrics` when the front counts);
 * - `probe`: to the Worker, past the overload bound (`GET` or `HEAD` of
 *   `/healthz`, and of `/metrics` when the front counts nothing), the core's
 *   routes marked `pastOverload`: a busy process must still answer its probes
 *   and scrapes;
 * - `worker`: to the Worker, under the overload bound.
 */
export type FrontRoute = 'local' | 'scrape' | 'probe' | 'worker';

/** A `node:http` handler that hands each request to the Worker behind it, and how to let go of its connections. */
export interface WorkerProxy {
  /** Sorts each request ({@link sort}) and passes it on ({@link pass}). */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Where the request goes ({@link FrontRoute}): read once, as it arrives. */
  sort(req: IncomingMessage): FrontRoute;
  /**
   * Sends the request where `route`, what {@link sort} gave for it as it arrived, says: for a front that
   * sorts each request itself first (the overload gate), so that none is sorted twice.
   */
  pass(req: IncomingMessage, res: ServerResponse, route: FrontRoute): void;
  close(): void;
}

/**
 * Passes requests from the standalone workerd server's `node:http` front
 * ({@link serveNodeHttp}, which reads, times and refuses them as on Node) to
 * workerd on a loopback socket, and the Worker's answers back. Targets go as
 * origin-form (an absolute-form target by its path, as the core routes it;
 * anything else, such as `*`, under `/`, where nothing is routed), with the
 * client's headers but those {@link passesOn} keeps back, and the peer's
 * address in `CF-Connecting-IP`, `X-Forwarded-For` and `X-Real-IP`.
 * A client waiting for `100 Continue` is sent it at once, unless its declared
 * length is refused. Methods no route of the Worker has (`CONNECT`, `PUT`,
 * `M-SEARCH`…), and every request once the front drains, never reach workerd:
 * `answerLocally`, a handler with the Worker's routes and options, answers
 * them as the Worker would, and as the handler drains on Node.
 *
 * @param maxBodyBytes The Worker's body limit: at most one byte more is passed on ({@link gatherBody}).
 */
export function proxyToWorker(
  upstream: { readonly host: string; readonly port: number },
  answerLocally: (req: IncomingMessage, res: ServerResponse) => void,
  maxBodyBytes: number,
  options: ProxyOptions = {},
): WorkerProxy {
  const { docs = false, answerTimeoutMs = WORKER_ANSWER_TIMEOUT_MS, frontMetrics, onStoreAnswer, overrule } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_UPSTREAM_CONNECTIONS });
  // Requests whose body the front is still gathering: begun, and in no count of the Worker's yet.
  let gathering = 0;
  const host = `${upstream.host}:${upstream.port}`;
  const sort = (req: IncomingMessage): FrontRoute => {
    const method = req.method ?? '';
    if (!WORKER_METHODS.has(method)) return 'local';
    // Draining (the front stopped listening), the local handler answers as the Worker would on
    // Node: 503 (1501) with `Connection: close` to creates and /readyz, 200 to /healthz; a scrape
    // still goes to the Worker, whose counts are most of it.
    if (method !== 'GET' && method !== 'HEAD') return isServerClosing(req) ? 'local' : 'worker';
    const target = originForm(req.url ?? '/');
    // The docs files by their target, as isDocsRequest reads them, whatever path it routes to.
    if (docs && isDocsTarget(target)) return 'local';
    const path = routePath(target);
    if (path === '/metrics' && frontMetrics !== undefined) return 'scrape';
    if (isServerClosing(req)) return 'local';
    return path === '/healthz' || path === '/metrics' ? 'probe' : 'worker';
  };
  const pass = (req: IncomingMessage, res: ServerResponse, route: FrontRoute) => {
    if (route === 'local') return answerLocally(req, res);
    const headers: string[] = [];
    const raw = req.rawHeaders;
    const named = connectionOptions(req.headers.connection);
    // Over HTTP/2 a client may split `Cookie` into several fields, which go on as one, joined by "; " (RFC 9113 §8.2.3).
    let cookies: string[] | undefined;
    // A repeated field goes on as one, its values joined with ", " as the Node, Bun and Deno servers read it: workerd
    // drops an empty one (`Authorization:` then `Authorization: Bearer …` read as the token alone, where the others
    // read ", Bearer …", a malformed credential).
    const at = new Map<string, number>();
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (!passesOn(name) || (named !== undefined && named.has(name))) continue;
      if (name === 'cookie' && req.httpVersionMajor === 2) (cookies ??= []).push(raw[i + 1]!);
      else {
        const seen = at.get(name);
        if (seen === undefined) {
          at.set(name, headers.length + 1);
          headers.push(raw[i]!, raw[i + 1]!);
        } else headers[seen] = `${headers[seen]!}, ${raw[i + 1]!}`;
      }
    }
    if (cookies !== undefined) headers.push('cookie', cookies.join('; '));
    // workerd refuses two Host headers, an empty one or odd characters in it, which node:http lets
    // through; nothing in the contract reads the Host, so the Worker is given its own.
    headers.push('host', host);
    // The address the connection really comes from (node:http gives `::ffff:`-mapped IPv4 as such; it is passed on so).
    const peer = req.socket.remoteAddress;
    if (peer !== undefined) for (const name of PEER_HEADERS) headers.push(name, peer);
    headers.push(FRONT_MARK, '1');
    // A scrape of the metrics, whose answer gets the front's counts added: asked with GET, also for a HEAD (marked,
    // so that the Worker counts a HEAD), whose Content-Length is then that of the whole scrape.
    const scrape = route === 'scrape';
    if (scrape && req.method === 'HEAD') headers.push(HEAD_MARK, '1');
    let current: ClientRequest | undefined;
    // Whether the client went away (or its stream was reset) before its answer was sent: kept here,
    // since node:http2's compatibility response has no `destroyed` to say so.
    let gone = false;
    // Whether the Worker took longer than answerTimeoutMs: its request is cut, and what it still says is not heard.
    let late = false;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    // The client went away before its answer was sent: so does the request to workerd.
    res.on('close', () => {
      clearTimeout(deadline);
      if (res.writableFinished) return;
      gone = true;
      current?.destroy();
    });
    const expire = () => {
      late = true;
      current?.destroy();
      if (gone || res.destroyed) return;
      if (res.headersSent) res.destroy();
      else send(req, res, WORKER_UNAVAILABLE);
    };
    // `headers` ends with the body's length once it is known (pushed below).
    const forward = (body: Buffer | undefined, attempt = 0) => {
      let forwarded: ClientRequest;
      try {
        forwarded = request({
          agent,
          host: upstream.host,
          port: upstream.port,
          method: scrape ? 'GET' : req.method,
          path: originForm(req.url ?? '/'),
          headers: headers as unknown as OutgoingHttpHeaders,
        });
      } catch {
        // A header Node's client would not send (it checks more strictly than its parser).
        return send(req, res, PROTOCOL_ERRORS['malformed-request']);
      }
      // From the first attempt: the request's whole body is here, so only the Worker's time (and a wait for one of the
      // connections to workerd) is counted.
      deadline ??= setTimeout(expire, answerTimeoutMs);
      forwarded.on('response', (answer) => {
        const out: string[] = [];
        const back = answer.rawHeaders;
        let closes = false;
        for (let i = 0; i < back.length; i += 2) {
          const name = back[i]!.toLowerCase();
          if (name === CLOSE_MARK) closes = true;
          else if (!HOP_BY_HOP.has(name)) out.push(back[i]!, back[i + 1]!);
        }
        // The Worker's core chose the id its answer carries: the front's access log writes that one.
        const requestId = rawHeader(answer, 'x-request-id');
        if (requestId !== undefined) recordRequestId(res, requestId);
        // The answer is read whole before any of it is written: a client that does not read
        // then holds only its own socket (and the front's write timeout cuts it), never one of
        // the connections to workerd, which every other client needs. The Worker's answers are
        // bounded: the docs files, the large ones, are answered by the front itself, and the
        // largest left is the OpenAPI document (13 KB).
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
        });
        answer.on('error', () => {
          clearTimeout(deadline);
          if (late) return;
          if (res.headersSent) res.destroy();
          else send(req, res, WORKER_UNAVAILABLE);
        });
        answer.on('end', () => {
          clearTimeout(deadline);
          // Refused from its declared length, the request still owes workerd a body: that
          // connection is not used again.
          if (body === undefined) forwarded.destroy();
          // Whether it answers a create (false) or a readiness probe (true), for the launcher's watches; undefined: neither.
          let store: boolean | undefined;
          if (onStoreAnswer !== undefined || overrule !== undefined) {
            const method = req.method;
            if (method === 'POST') store = false;
            else if ((method === 'GET' || method === 'HEAD') && routePath(originForm(req.url ?? '/')) === '/readyz') store = true;
            if (store !== undefined) onStoreAnswer?.(answer.statusCode ?? 0, store);
          }
          if (late || gone || res.destroyed) return;
          let status = answer.statusCode ?? 502;
          let whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
          const instead = store === undefined ? undefined : overrule?.(status, store);
          if (instead !== undefined) {
            // The Worker's headers but its body's own, so that the request id and CORS headers stay as the Worker gave them.
            for (let i = out.length - 2; i >= 0; i -= 2) {
              const name = out[i]!.toLowerCase();
              if (name === 'content-type' || name === 'content-length') out.splice(i, 2);
            }
            for (const [name, value] of Object.entries(instead.headers)) out.push(name, value);
            const refusal = Buffer.from(instead.body);
            // A HEAD is told the length GET's answer has, and sent no body, as the Worker answers one.
            out.push('content-length', String(refusal.length));
            whole = req.method === 'HEAD' ? Buffer.alloc(0) : refusal;
            status = instead.status;
          }
          if (scrape && frontMetrics !== undefined && answer.statusCode === 200) {
            // The requests still arriving at the front are in flight too, as the core counts them on Node.
            const arriving = `# HELP http_server_active_requests\n# TYPE http_server_active_requests gauge\nhttp_server_active_requests ${gathering}\n`;
            whole = Buffer.from(mergeExpositions(mergeExpositions(whole.toString('utf8'), frontMetrics()), arriving));
            const length = out.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'content-length');
            if (length >= 0) out[length + 1] = String(whole.length);
          }
          // A request that asked to upgrade is answered, not upgraded, and node:http reads nothing more on its
          // connection: the answer says so (docs/contract.md, "Pipelining"). An answer written while the front
          // drains closes its connection, as on Node: kept, it held the process's exit until the keep-alive timeout
          // (5 s after the answer), past the drain's grace, in which idle connections close.
          if (closes || isServerClosing(req) || asksToUpgrade(req)) res.shouldKeepAlive = false;
          try {
            res.writeHead(status, out);
          } catch {
            // Headers node:http will not send (never seen from workerd): no answer rather than a crash.
            res.destroy();
            return;
          }
          if (whole.length > 0) res.write(whole);
          endAfterBody(req, res);
        });
      });
      forwarded.on('error', () => {
        // Cut at the deadline, whose answer is sent already.
        if (late) return;
        if (res.headersSent) return res.destroy();
        // A kept-alive connection workerd closed as it was taken (it closes one after
        // answering a request whose body it did not read): the request never reached the
        // Worker, and is sent again on another. Creates are idempotent per id, so even a
        // request that did arrive is safe to send twice; one refused from its declared
        // length carries no body and stores nothing, so it is sent again alike.
        if (forwarded.reusedSocket && attempt < MAX_RETRIES && !gone && !res.destroyed) return forward(body, attempt + 1);
        clearTimeout(deadline);
        send(req, res, WORKER_UNAVAILABLE);
      });
      current = forwarded;
      if (body === undefined) forwarded.flushHeaders();
      else forwarded.end(body);
    };
    // A declared length over the limit is refused from the headers (413): no body is invited or passed on.
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBodyBytes) {
      headers.push('content-length', declared);
      return forward(undefined);
    }
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
    // In flight here, not yet in the Worker's count, until its body is whole (or its client gone).
    gathering++;
    let gathered = false;
    const bodyIn = () => {
      if (gathered) return;
      gathered = true;
      gathering--;
    };
    res.once('close', bodyIn);
    gatherBody(req, maxBodyBytes, (body) => {
      bodyIn();
      // Over HTTP/2 a stream's body ends when the stream closes, reset by its client or cut by the request timeout
      // (408): what came of it is not the client's whole body, and is not sent on.
      if (gone || res.headersSent || (req as { aborted?: boolean }).aborted === true) return;
      headers.push('content-length', String(body.length));
      forward(body);
    });
  };
  return { handler: (req, res) => pass(req, res, sort(req)), sort, pass, close: () => agent.destroy() };
}

/**
 * Whether the request asks for the API reference page or one of its files
 * (`GET` or `HEAD` under `/docs`), which the front answers with the Worker's
 * own routes and options: the same bytes and headers, with no connection to
 * workerd held while a client slow to read takes 1.7 MB, and none of the
 * copies that reading each answer from workerd would make.
 */
export function isDocsRequest(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && isDocsTarget(originForm(req.url ?? '/'));
}

/** Whether an origin-form target ({@link originForm}) is the API reference page or one of its files. */
function isDocsTarget(target: string): boolean {
  return target === '/docs' || target.startsWith('/docs/') || target.startsWith('/docs?');
}

/**
 * Whether a client's header goes on to the Worker: not hop-by-hop, not one
 * the front sets itself (`Host`, `Content-Length`, the peer's address), not
 * {@link NOT_FROM_CLIENTS}, not Cloudflare's own (`CF-…`: a Worker reads
 * `CF-Connecting-IP` and `CF-Ray` as Cloudflare's word) and not miniflare's
 * (`MF-…`: `MF-CF-Blob` would be read as the request's `cf` object), and not
 * an HTTP/2 pseudo-header.
 */
function passesOn(name: string): boolean {
  return (
    !HOP_BY_HOP.has(name) &&
    !NOT_FROM_CLIENTS.has(name) &&
    name !== 'host' &&
    name !== 'content-length' &&
    !name.startsWith('cf-') &&
    !name.startsWith('mf-') &&
    // HTTP/2's pseudo-headers (`:method`, `:path`, `:authority`, `:scheme`) are this hop's framing.
    !name.startsWith(':')
  );
}

/**
 * The header names a `Connection` header lists (RFC 9110 §7.6.1: options for
 * this hop only, such as `Connection: close, X-Secret`), lower-cased; undefined
 * for none, the common case, which costs nothing more per header.
 */
export function connectionOptions(connection: string | undefined): ReadonlySet<string> | undefined {
  if (connection === undefined) return undefined;
  const names = connection
    .split(',')
    .map((option) => option.trim().toLowerCase())
    .filter((option) => option !== '' && option !== 'close' && option !== 'keep-alive');
  return names.length === 0 ? undefined : new Set(names);
}

/**
 * Gathers the body, up to `maxBodyBytes + 1` bytes: enough for the Worker to
 * answer 413, so it is handed on as soon as it is there, and what the client
 * sends past that is dropped as it arrives. The body goes to workerd whole, in
 * one write, with its length: workerd closes a connection whose request it
 * answered without reading the body (401, 404, 415) even while that body is
 * still being written to it, and the reset then loses the answer; a body
 * written at once is already with workerd when the answer is sent.
 */
function gatherBody(req: IncomingMessage, maxBodyBytes: number, then: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    then(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  };
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    const part = chunk.length > maxBodyBytes + 1 - size ? chunk.subarray(0, maxBodyBytes + 1 - size) : chunk;
    chunks.push(part);
    size += part.length;
    if (size > maxBodyBytes) finish();
  });
  req.on('end', finish);
}

/**
 * The characters node:http lets through in a target that workerd refuses with a plain-text 400 ("invalid URI"):
 * `<`, `>` and `"` anywhere, `` ` `` in the path (workerd 2026-11-17; runtime-tests/differential-corpus.ts). Each is
 * written percent-encoded, as a WHATWG URL parser (Bun's) writes it, which no route's match depends on.
 */
const REFUSED_BY_WORKERD = /[<>"`]/;
const REFUSED_IN_PATH = /[<>"`]/g;
const REFUSED_IN_QUERY = /[<>"]/g;

/** The target as workerd takes it: origin-form, with the characters it refuses percent-encoded. */
export function originForm(target: string): string {
  if (target.startsWith('/')) return REFUSED_BY_WORKERD.test(target) ? encodeRefused(target) : target;
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      return `${url.pathname}${url.search}`;
    } catch {
      // Not a URL: no route, below.
    }
  }
  return `/${encodeURIComponent(target)}`;
}

/** `target` with {@link REFUSED_BY_WORKERD}'s characters percent-encoded: `` ` `` only before the query. */
function encodeRefused(target: string): string {
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  const rest = query < 0 ? '' : target.slice(query);
  const encode = (character: string) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`;
  return path.replace(REFUSED_IN_PATH, encode) + rest.replace(REFUSED_IN_QUERY, encode);
}

/** An answer of the front's own, with the request's id, closing the connection (over HTTP/2, only the stream ends). */
function send(req: IncomingMessage, res: ServerResponse, { status, headers, body }: PlantResponse): void {
  res.shouldKeepAlive = false;
  const requestId = requestIdOf(rawHeader(req, 'x-request-id'));
  recordRequestId(res, requestId);
  res.writeHead(status, { ...headers, 'x-request-id': requestId, 'content-length': Buffer.byteLength(body) });
  res.write(body);
  endAfterBody(req, res);
}
