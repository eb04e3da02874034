import type { BodyResult, PlantRequest } from '@plant-store/core';

const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };
const ABORTED: BodyResult = { ok: false, reason: 'aborted' };
const EMPTY: BodyResult = { ok: true, bytes: new Uint8Array(0) };
// How much of an unwanted body is still read and dropped after answering.
const DISCARD_LIMIT = 64 * 1024 * 1024;

/** A WHATWG `Request` seen as the core's plain {@link PlantRequest}. */
export class FetchPlantRequest implements PlantRequest {
  readonly method: string;
  readonly url: string;
  readonly mountPath: string | undefined;
  readonly draining: boolean;
  readonly #request: Request;
  /** Set while part of the body is still unread. */
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #discarding: Promise<void> | undefined;
  /** Whether readBody took the body: not every runtime's `bodyUsed` says so. */
  #read = false;
  readonly #deadline: AbortSignal | undefined;
  #timedOut = false;

  /**
   * @param deadline Aborted once the request may no longer be received (a
   *   launcher's request timeout): a body read in progress or still to come
   *   ends, {@link timedOut} turns true, and a background drop stops.
   * @param mountPath Where the host mounted the handler, when it strips that
   *   path from the URL before calling it.
   */
  constructor(request: Request, draining = false, deadline?: AbortSignal, mountPath?: string) {
    this.#request = request;
    this.method = request.method;
    this.url = pathAndQuery(request.url);
    this.mountPath = mountPath;
    this.draining = draining;
    this.#deadline = deadline;
  }

  /** Whether reading the body was cut by the deadline: the answer is then 408 (1402), not the core's. */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  header(name: string): string | undefined {
    return this.#request.headers.get(name) ?? undefined;
  }

  async readBody(maxBytes: number): Promise<BodyResult> {
    const request = this.#request;
    const declared = request.headers.get('content-length');
    if (declared !== null && Number(declared) > maxBytes) return TOO_LARGE;
    const deadline = this.#deadline;
    if (deadline?.aborted === true) {
      this.#timedOut = true;
      return ABORTED;
    }
    // A declared length within the limit is enforced by the runtime's HTTP
    // parser, so the whole body can be taken in one call, the fast way, and
    // without `request.body`, whose stream some runtimes only build on access.
    if (declared !== null) {
      this.#read = true;
      try {
        const whole = request.arrayBuffer();
        if (deadline === undefined) return { ok: true, bytes: new Uint8Array(await whole) };
        const cut = new Promise<undefined>((resolve) => deadline.addEventListener('abort', () => resolve(undefined), { once: true }));
        const buffer = await Promise.race([whole, cut]);
        if (buffer === undefined) {
          // The runtime keeps reading into the abandoned buffer until the
          // connection closes, which the 408's `Connection: close` does.
          whole.catch(() => {});
          this.#timedOut = true;
          return ABORTED;
        }
        return { ok: true, bytes: new Uint8Array(buffer) };
      } catch {
        return ABORTED;
      }
    }
    this.#read = true;
    const body = request.body;
    if (body === null) return EMPTY;
    const reader = (this.#reader = body.getReader());
    const onAbort = () => {
      this.#timedOut = true;
      reader.cancel().catch(() => {});
    };
    deadline?.addEventListener('abort', onAbort, { once: true });
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.#timedOut) return ABORTED;
        if (done) break;
        size += value.byteLength;
        // Stop keeping bytes at the limit; `discardUnread` drops the rest.
        if (size > maxBytes) return TOO_LARGE;
        chunks.push(value);
      }
    } catch {
      return ABORTED;
    } finally {
      deadline?.removeEventListener('abort', onAbort);
    }
    this.#reader = undefined;
    if (chunks.length === 1) return { ok: true, bytes: chunks[0]! };
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return { ok: true, bytes };
  }

  /**
   * Reads and drops, in the background, whatever of the body the core did not
   * want (a 401 never reads it, a 413 stops at the limit), so that the client
   * can finish sending and read its answer instead of meeting a connection
   * reset. Nothing is kept; past 64 MiB the stream is cancelled instead.
   */
  discardUnread(): void {
    let reader = this.#reader;
    if (reader === undefined) {
      // The usual case, a body read whole, ends here at once.
      if (this.#read || this.#request.bodyUsed) return;
      const body = this.#request.body;
      if (body === null || body.locked) return;
      reader = body.getReader();
    }
    this.#reader = undefined;
    if (this.#timedOut) {
      reader.cancel().catch(() => {});
      return;
    }
    this.#discarding = drop(reader, this.#deadline);
  }

  /** The background drop started by {@link discardUnread}, if any, for a Worker's `waitUntil`. */
  get discarding(): Promise<void> | undefined {
    return this.#discarding;
  }
}

async function drop(reader: ReadableStreamDefaultReader<Uint8Array>, deadline: AbortSignal | undefined): Promise<void> {
  const stop = () => void reader.cancel().catch(() => {});
  deadline?.addEventListener('abort', stop, { once: true });
  try {
    if (deadline?.aborted === true) return stop();
    for (let dropped = 0; dropped <= DISCARD_LIMIT;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing is left to drop.
  } finally {
    deadline?.removeEventListener('abort', stop);
  }
}

/** `https://host:8080/plants?x=1` → `/plants?x=1`, without the cost of `new URL`. */
export function pathAndQuery(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme < 0) return url;
  const slash = url.indexOf('/', scheme + 3);
  return slash < 0 ? '/' : url.slice(slash);
}
