// Runs on Node (and the runtimes that serve node:http: Deno, Bun): node:http's request seen as the core's PlantRequest.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PendingBody, type BodyReading, type BodyResult, type PlantRequest } from '@plant-store/core';

const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };
const ABORTED: BodyResult = { ok: false, reason: 'aborted' };

/** Node's own flags on a response to a request with `Expect: 100-continue` (Node 20 to 24). */
type ContinueFlags = { _expect_continue?: boolean; _sent100?: boolean };

/**
 * A Node `IncomingMessage` seen as the core's plain {@link PlantRequest}.
 * One small object per request; the body is read only when the core asks.
 *
 * Given the `ServerResponse` too, it sends `100 Continue` to a request that
 * expects it when, and only when, the core starts reading the body: after the
 * request was routed and authenticated and its declared length accepted.
 * That takes effect where Node does not send 100 by itself, that is where the
 * server handles `checkContinue` (as the standalone server does).
 */
export class NodePlantRequest implements PlantRequest {
  readonly method: string;
  readonly url: string;
  readonly mountPath: string | undefined;
  readonly draining: boolean;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse | undefined;

  /**
   * @param mountPath Where the host mounted the handler, when it strips that
   *   path from `req.url` without keeping it in `req.baseUrl`.
   */
  constructor(req: IncomingMessage, res?: ServerResponse, mountPath?: string) {
    this.#req = req;
    this.#res = res;
    this.method = req.method ?? '';
    this.url = req.url ?? '';
    // Express strips its mount path from `url` and keeps it in `baseUrl`.
    this.mountPath = mountPath ?? (req as { baseUrl?: string }).baseUrl;
    this.draining = isServerClosing(req);
  }

  header(name: string): string | undefined {
    return rawHeader(this.#req, name);
  }

  readBody(maxBytes: number): BodyResult | BodyReading {
    const req = this.#req;
    const declared = rawHeader(req, 'content-length');
    if (declared !== undefined && Number(declared) > maxBytes) return TOO_LARGE;
    if (this.#res !== undefined) sendContinue(this.#req, this.#res);
    // The whole body is already in the stream's buffer (a host that called
    // the handler late, as Express may): take it at once, without listeners.
    if (req.complete && !req.readableFlowing) return readBuffered(req, maxBytes);
    // Gone, or read by someone else before the core asked: no 'end' or 'close' is still to come.
    if (req.destroyed || req.readableEnded) return ABORTED;
    // During the 'request' event Node has parsed only the head, even when the
    // body came in the same packet: it is parsed once this event returns.
    return readStreaming(req, maxBytes, this.#res);
  }
}

/**
 * The value of header `name` (lower case) of `req`, repeated fields joined
 * with `, ` as Fetch joins them. Read from `rawHeaders`, because
 * `req.headers` silently keeps only the first of some repeated headers
 * (Authorization, Content-Type).
 */
export function rawHeader(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  const title = titleCase(name);
  const first = name.charCodeAt(0);
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && (key === name || key === title || (lowerCode(key.charCodeAt(0)) === first && key.toLowerCase() === name))) {
      value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
  }
  return value;
}

/**
 * Whether `req` asked to switch protocols (`Upgrade` with `Connection: upgrade`, RFC 9110 §7.8), as node:http's
 * parser reads it: answered as any request when the server takes no upgrade, after which node:http reads nothing
 * more on its connection. (`req.upgrade` does not say: node:http sets it false when no one listens for upgrades.)
 */
export function asksToUpgrade(req: IncomingMessage): boolean {
  if (rawHeader(req, 'upgrade') === undefined) return false;
  const connection = rawHeader(req, 'connection');
  return connection !== undefined && /(?:^|,)[ \t]*upgrade[ \t]*(?:,|$)/i.test(connection);
}

/** A character code with A-Z folded to a-z, as `toLowerCase` folds the characters of a header name. */
function lowerCode(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/**
 * The usual spelling of the names every create asks for, which is compared as it is before any copy is
 * lower-cased. A name as the client sent it is matched case by case: comparing it in lower case letter by
 * letter cost Node 24 some 1,700 instructions a create more than this (V8's predictable mode under cachegrind).
 */
function titleCase(name: string): string | undefined {
  switch (name) {
    case 'authorization':
      return 'Authorization';
    case 'content-type':
      return 'Content-Type';
    case 'content-length':
      return 'Content-Length';
    case 'x-request-id':
      return 'X-Request-Id';
    default:
      return undefined;
  }
}

/**
 * Reads the body as it arrives, keeping nothing past `maxBytes`. The reading
 * calls back from the stream's own 'end' (or 'close') listener, as a
 * hand-written `data`/`end` server would go on, not a microtask turn later
 * as a promise would.
 */
function readStreaming(req: IncomingMessage, maxBytes: number, res: ServerResponse | undefined): BodyReading {
  const reading = new PendingBody();
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      // Keep nothing more: the rest is read and dropped, so the client can
      // finish sending and read its 413 instead of meeting a reset.
      req.off('data', onData);
      first = chunks = undefined;
      req.resume();
      reading.settle(TOO_LARGE);
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  };
  // The listeners stay once the body is in: the request is done with, and
  // its 'close' settles nothing.
  req.on('data', onData);
  // A body whose request the host has answered already is not the client's whole body, though its stream may
  // still end: nothing is done with it. The host answered on the response (node:http2 ends a stream's request side
  // once its 408 closes the stream), or wrote its refusal on the connection itself and ended it (the standalone
  // server's 408 at node:http's request timeout, whose linger still reads the rest of the body).
  req.on('end', () =>
    reading.settle(
      res?.writableEnded === true || req.socket?.writableEnded === true
        ? ABORTED
        : { ok: true, bytes: chunks !== undefined ? Buffer.concat(chunks, size) : (first ?? EMPTY) },
    ),
  );
  // Node's, Deno's and Bun's node:http emit 'error' on an aborted request only to a listener, which costs
  // Node 24 about 700 instructions a create to have; 'close' always comes. node:http2's compatibility
  // request emits it listened to or not when a host destroys it with an error, so it is listened to there.
  const onAbort = () => reading.settle(ABORTED);
  if (req.httpVersionMajor === 2) req.on('error', onAbort);
  req.on('close', onAbort);
  // A host may have paused the stream; listening alone would then wait forever.
  if (req.readableFlowing === false) req.resume();
  return reading;
}

const EMPTY = new Uint8Array(0);

/** Responses to HTTP/2 requests that expected a 100 and were sent it: node:http2's compatibility API keeps no flag of its own. */
const sent100OverHttp2 = new WeakSet<ServerResponse>();

/**
 * Tells a client that waits for it (`Expect: 100-continue`: over HTTP/1.1 as
 * Node flags it, over HTTP/2 as the request says) to send the body, unless
 * Node or an earlier call already did, or an answer has begun. A client that
 * sent its body without waiting gets the 100 as well: harmless (RFC 9110
 * §15.2), and it keeps the connection open, which Node closes after a final
 * answer to a request still owed a 100.
 */
function sendContinue(req: IncomingMessage, res: ServerResponse): void {
  const flags = res as ServerResponse & ContinueFlags;
  if (flags._expect_continue === true) {
    if (flags._sent100 !== true && !res.headersSent && !res.destroyed) res.writeContinue();
    return;
  }
  if (req.httpVersionMajor !== 2 || res.headersSent || res.destroyed) return;
  if (req.headers.expect?.toLowerCase() !== '100-continue' || sent100OverHttp2.has(res)) return;
  sent100OverHttp2.add(res);
  res.writeContinue();
}

/** Whether `res` answers an HTTP/1.1 request that expects `100 Continue` and was not sent one (Node's own flags). */
export function owedContinue(res: ServerResponse): boolean {
  const flags = res as ServerResponse & ContinueFlags;
  return flags._expect_continue === true && flags._sent100 !== true;
}

function readBuffered(req: IncomingMessage, maxBytes: number): BodyResult {
  if (req.readableLength > maxBytes) {
    req.resume();
    return TOO_LARGE;
  }
  const first = req.read() as Buffer | null;
  if (first === null) return { ok: true, bytes: EMPTY };
  // Node hands over the whole buffer in one read; Deno's node:http one
  // chunk per read, so read on until the buffer is empty.
  if (req.readableLength === 0) return { ok: true, bytes: first };
  const chunks = [first];
  let size = first.length;
  for (let next = req.read() as Buffer | null; next !== null; next = req.read() as Buffer | null) {
    chunks.push(next);
    size += next.length;
  }
  return { ok: true, bytes: Buffer.concat(chunks, size) };
}

/** Whether the server this request came in on has stopped accepting connections. */
export function isServerClosing(req: IncomingMessage): boolean {
  const server = (req.socket as { server?: { listening?: boolean } } | null)?.server;
  return server?.listening === false;
}
