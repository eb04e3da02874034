import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BodyResult, PlantRequest } from '@plant-store/core';

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
    // From rawHeaders, because `req.headers` silently keeps only the first of
    // some repeated headers (Authorization, Content-Type); Fetch joins them.
    const raw = this.#req.rawHeaders;
    let value: string | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i]!;
      if (key.length === name.length && key.toLowerCase() === name) {
        value = value === undefined ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
      }
    }
    return value;
  }

  readBody(maxBytes: number): BodyResult | Promise<BodyResult> {
    const req = this.#req;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) return TOO_LARGE;
    if (this.#res !== undefined) sendContinue(this.#res);
    // The whole body is already in the stream's buffer: take it at once,
    // without listeners or another turn.
    if (req.complete && !req.readableFlowing) return readBuffered(req, maxBytes);
    // Asked during the 'request' event, Node is still parsing the bytes the
    // head came in; a body that came with it is parsed before the next
    // microtask. Look again then, before paying for stream events.
    return Promise.resolve().then(() => (req.complete && !req.readableFlowing ? readBuffered(req, maxBytes) : readStreaming(req, maxBytes)));
  }
}

/** Reads the body as it arrives, keeping nothing past `maxBytes`. */
function readStreaming(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        // Keep nothing more: the rest is read and dropped, so the client can
        // finish sending and read its 413 instead of meeting a reset.
        cleanup();
        req.resume();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    };
    const onAbort = () => {
      cleanup();
      resolve(ABORTED);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

const EMPTY = new Uint8Array(0);

/**
 * Tells a client that waits for it (`Expect: 100-continue`, HTTP/1.1, as Node
 * flags it) to send the body, unless Node or an earlier call already did, or
 * an answer has begun. A client that sent its body without waiting gets the
 * 100 as well: harmless (RFC 9110 §15.2), and it keeps the connection open,
 * which Node closes after a final answer to a request still owed a 100.
 */
function sendContinue(res: ServerResponse): void {
  const flags = res as ServerResponse & ContinueFlags;
  if (flags._expect_continue === true && flags._sent100 !== true && !res.headersSent && !res.destroyed) res.writeContinue();
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
