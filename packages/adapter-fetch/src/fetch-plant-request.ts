import { PendingBody, type BodyReading, type BodyResult, type PlantRequest } from '@plant-store/core';
import type { RequestDeadline } from './request-deadline.ts';

const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };
const ABORTED: BodyResult = { ok: false, reason: 'aborted' };
const TIMED_OUT: BodyResult = { ok: false, reason: 'timed-out' };
const EMPTY: BodyResult = { ok: true, bytes: new Uint8Array(0) };
// How much of an unwanted body is still read and dropped after answering.
const DISCARD_LIMIT = 64 * 1024 * 1024;
// Up to this declared length an unwanted body is dropped by taking it whole, as readBody takes a body, with no stream
// built for it: on Bun 1.4.5 a stream and its reader per request held 3.9 KB each while 100 clients that never read
// pipelined 500 creates without a token (+192 MiB; +30 MiB taken whole).
const DROP_WHOLE_LIMIT = 64 * 1024;

type BodyReader = { bytes?: () => Promise<Uint8Array> };

/**
 * A WHATWG `Request` seen as the core's plain {@link PlantRequest}. One per
 * request, so its state lives in plain fields (cheaper to create than `#`
 * private ones on some engines), hidden from the core by the interface.
 */
export class FetchPlantRequest implements PlantRequest {
  readonly method: string;
  readonly url: string;
  readonly mountPath: string | undefined;
  readonly draining: boolean;
  private readonly request: Request;
  /** Read once: on some runtimes `request.headers` is a getter that costs a call each time. */
  private readonly headers: Headers;
  /** Set while part of the body is still unread. */
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined = undefined;
  private dropping: Promise<void> | undefined = undefined;
  /** Whether readBody took the body: not every runtime's `bodyUsed` says so. */
  private read = false;
  private readonly deadline: RequestDeadline | undefined;
  private cut = false;

  /**
   * @param deadline Passes once the request may no longer be received (a
   *   launcher's request timeout): a body read in progress or still to come
   *   ends as `timed-out`, which the core answers 408 (1402), and a
   *   background drop stops.
   * @param mountPath Where the host mounted the handler, when it strips that
   *   path from the URL before calling it.
   * @param target The request target as it came, when the request's URL
   *   lost it (see {@link TARGET}); routed as the core routes any target.
   */
  constructor(request: Request, draining = false, deadline?: RequestDeadline, mountPath?: string, target?: string) {
    this.request = request;
    this.headers = request.headers;
    this.method = request.method;
    this.url = target ?? pathAndQuery(request.url);
    this.mountPath = mountPath;
    this.draining = draining;
    this.deadline = deadline;
  }

  header(name: string): string | undefined {
    return this.headers.get(name) ?? undefined;
  }

  readBody(maxBytes: number): BodyResult | BodyReading {
    const request = this.request;
    const declared = this.headers.get('content-length');
    if (declared !== null && Number(declared) > maxBytes) return TOO_LARGE;
    const deadline = this.deadline;
    if (deadline?.passed === true) {
      this.cut = true;
      return TIMED_OUT;
    }
    this.read = true;
    if (declared === null) return this.readChunked(maxBytes);
    // A declared length within the limit is enforced by the runtime's HTTP
    // parser, so the whole body can be taken in one call, the fast way, and
    // without `request.body`, whose stream some runtimes only build on access.
    // `bytes()` where the runtime has it, else `arrayBuffer()` and a view.
    const taking = (request as BodyReader).bytes;
    const whole: Promise<Uint8Array> = typeof taking === 'function' ? taking.call(request) : request.arrayBuffer().then((buffer) => new Uint8Array(buffer));
    // Settled in the body's own promise reaction: the core goes on there, with no further turn.
    const reading = new PendingBody();
    // The runtime keeps reading into the abandoned buffer until the
    // connection closes, which the 408's `Connection: close` does.
    deadline?.watch(() => {
      this.cut = true;
      reading.settle(TIMED_OUT);
    });
    whole.then(
      (bytes) => {
        deadline?.watch(undefined);
        reading.settle({ ok: true, bytes });
      },
      () => {
        deadline?.watch(undefined);
        reading.settle(ABORTED);
      },
    );
    return reading;
  }

  /** A body of no declared length (chunked), read chunk by chunk up to the limit. */
  private async readChunked(maxBytes: number): Promise<BodyResult> {
    const body = this.request.body;
    if (body === null) return EMPTY;
    const deadline = this.deadline;
    const reader = (this.reader = body.getReader());
    deadline?.watch(() => {
      this.cut = true;
      reader.cancel().catch(() => {});
    });
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.cut) return TIMED_OUT;
        if (done) break;
        size += value.byteLength;
        // Stop keeping bytes at the limit; `discardUnread` drops the rest.
        if (size > maxBytes) return TOO_LARGE;
        chunks.push(value);
      }
    } catch {
      // Cancelled by the deadline, or the client went away.
      return this.cut ? TIMED_OUT : ABORTED;
    } finally {
      deadline?.watch(undefined);
    }
    this.reader = undefined;
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
   * reset. A body of declared length up to 64 KiB is taken whole and let go;
   * a larger or chunked one is read chunk by chunk, nothing kept, and past
   * 64 MiB the stream is cancelled instead.
   */
  discardUnread(): void {
    let reader = this.reader;
    if (reader === undefined) {
      // The usual case, a body read whole, ends here at once.
      if (this.read || this.request.bodyUsed) return;
      const declared = this.headers.get('content-length');
      if (declared !== null && Number(declared) <= DROP_WHOLE_LIMIT) {
        this.dropping = dropWhole(this.request, this.deadline);
        return;
      }
      const body = this.request.body;
      if (body === null || body.locked) return;
      reader = body.getReader();
    }
    this.reader = undefined;
    if (this.cut) {
      reader.cancel().catch(() => {});
      return;
    }
    this.dropping = drop(reader, this.deadline);
  }

  /** The background drop started by {@link discardUnread}, if any, for a Worker's `waitUntil`. */
  get discarding(): Promise<void> | undefined {
    return this.dropping;
  }
}

/**
 * Drops a small body of declared length by taking it whole; settles once it is taken, or gone with its client, or
 * when the deadline passes, after which the runtime keeps reading into the abandoned buffer until the connection ends.
 */
function dropWhole(request: Request, deadline: RequestDeadline | undefined): Promise<void> {
  if (deadline?.passed === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      deadline?.watch(undefined);
      resolve();
    };
    deadline?.watch(done);
    request.arrayBuffer().then(done, done);
  });
}

async function drop(reader: ReadableStreamDefaultReader<Uint8Array>, deadline: RequestDeadline | undefined): Promise<void> {
  const stop = () => void reader.cancel().catch(() => {});
  if (deadline?.passed === true) return stop();
  deadline?.watch(stop);
  try {
    for (let dropped = 0; dropped <= DISCARD_LIMIT;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing is left to drop.
  } finally {
    deadline?.watch(undefined);
  }
}

/**
 * The member of a handler's context that carries the request target as it
 * came, for a host whose `Request` URL cannot be trusted to keep it: the
 * node:http bridge, where @whatwg-node/server glues an absolute-form target
 * onto the `Host` (`http://example.comhttp://example.com/plants`). A symbol,
 * so that no host's own context member can be taken for it.
 */
export const TARGET: unique symbol = Symbol('plant-store request target');

/** `https://host:8080/plants?x=1` → `/plants?x=1`, without the cost of `new URL`. */
export function pathAndQuery(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme < 0) return url;
  const slash = url.indexOf('/', scheme + 3);
  return slash < 0 ? '/' : url.slice(slash);
}
