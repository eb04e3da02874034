import type { IncomingMessage } from 'node:http';
import type { BodyResult, PlantRequest } from '@plant-store/core';

const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };
const ABORTED: BodyResult = { ok: false, reason: 'aborted' };

/**
 * A Node `IncomingMessage` seen as the core's plain {@link PlantRequest}.
 * One small object per request; the body is read only when the core asks.
 */
export class NodePlantRequest implements PlantRequest {
  readonly method: string;
  readonly url: string;
  readonly mountPath: string | undefined;
  readonly draining: boolean;
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage) {
    this.#req = req;
    this.method = req.method ?? '';
    this.url = req.url ?? '';
    // Express strips its mount path from `url` and keeps it here.
    this.mountPath = (req as { baseUrl?: string }).baseUrl;
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

  readBody(maxBytes: number): Promise<BodyResult> {
    const req = this.#req;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve(TOO_LARGE);
    // The common case: the whole body came with the head and sits in the
    // stream's buffer; take it at once, without listeners or another turn.
    if (req.complete && !req.readableFlowing) return Promise.resolve(readBuffered(req, maxBytes));
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
}

const EMPTY = new Uint8Array(0);

function readBuffered(req: IncomingMessage, maxBytes: number): BodyResult {
  if (req.readableLength > maxBytes) {
    req.resume();
    return TOO_LARGE;
  }
  const chunk = req.read() as Buffer | null;
  return { ok: true, bytes: chunk ?? EMPTY };
}

/** Whether the server this request came in on has stopped accepting connections. */
export function isServerClosing(req: IncomingMessage): boolean {
  const server = (req.socket as { server?: { listening?: boolean } } | null)?.server;
  return server?.listening === false;
}
