// Runs anywhere (no runtime API): the plain request and response the adapters translate to and from.
import type { Thenable } from '../domain/is-thenable.ts';

/**
 * What reading a request body produced: the bytes, or why there are none:
 * `too-large` past the limit (413), `aborted` when the client went away or
 * stopped short (400), `timed-out` when the server's request deadline cut a
 * body still arriving (408, 1402, closing the connection).
 */
export type BodyResult = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly reason: 'too-large' | 'aborted' | 'timed-out' };

/**
 * A body still arriving, as the core waits for it: `then` calls `onRead`
 * once with the result itself (never a promise of it), or `onFailed` with an
 * error. Every `Promise<BodyResult>` is one; an adapter may hand a lighter
 * one, such as the core's `PendingBody`, that calls back as soon as the body is
 * in rather than a microtask turn later. It can be awaited, but it need not
 * be a promise: it may have no `catch`, and its `then` may return nothing.
 */
export interface BodyReading extends Thenable<BodyResult> {}

/**
 * A request as plain data: what an adapter hands the core. Adapters build one
 * per request from their runtime's own request type, without copying the body.
 */
export interface PlantRequest {
  /** The method as sent, e.g. `POST`. */
  readonly method: string;
  /**
   * The request target as sent: path plus optional query, e.g. `/plants?x=1`,
   * or absolute-form (`http://host/plants`). The handler routes by its path,
   * normalised as docs/contract.md ("Surface") says.
   */
  readonly url: string;
  /**
   * Where a host framework mounted the handler, already stripped from `url`
   * (Express's `req.baseUrl`, e.g. `/api`); only used to tell clients where
   * the routes live.
   */
  readonly mountPath?: string | undefined;
  /**
   * True when the server has begun to shut down and this request arrived
   * after that: it gets 503 (code 1501), to be retried on a new connection.
   */
  readonly draining?: boolean;
  /** A header's value by lowercase name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  /**
   * Reads the whole body, but never more than `maxBytes` of it: past the limit
   * it stops reading and answers `too-large`. Called at most once, and never
   * for a request that failed authentication. May answer at once (a body
   * already in memory), which saves the request a turn of the event loop;
   * else a {@link BodyReading}: a promise, or a lighter thenable to be awaited.
   */
  readBody(maxBytes: number): BodyResult | BodyReading;
}

/** An answer as plain data, for an adapter to write out unchanged. */
export interface PlantResponse {
  readonly status: number;
  /** Lowercase header names; shared between responses, so never mutate. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body as text: a JSON document (a Plant, an Error, the OpenAPI document,
   * a health answer), the HTML or a file of the docs page, or empty (an allowed
   * CORS preflight). Its type is in the `content-type` header, when there is one.
   */
  readonly body: string;
  /**
   * The same body as UTF-8 bytes, encoded once and shared by every answer
   * that carries it (the docs page and its files). An adapter writes these
   * when present rather than encoding `body` again: a client that reads an
   * answer slowly then holds no copy of its own, so a thousand of them
   * reading a 1.7 MB file cost one copy, not a thousand. Never mutate.
   */
  readonly bytes?: Uint8Array<ArrayBuffer>;
  /**
   * True when the path is not one this handler serves: a host framework
   * should hand the request on (`next()`), a standalone server sends the 404.
   */
  readonly unmatched?: true;
  /**
   * The code of an Error answer, as its body's `error` holds it (docs/contract.md,
   * "Error codes"): what a host counts or logs without parsing the body back.
   * Absent on every other answer.
   */
  readonly error?: number;
}
