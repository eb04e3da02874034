import { createPlantResponder, mountPathOption, type PlantHandlerOptions, type PlantResponse } from '@plant-store/core';
import { FetchPlantRequest, TARGET } from './fetch-plant-request.ts';
import type { RequestDeadline } from './request-deadline.ts';

/** Options of {@link createFetchHandler}: the core's handler options, handed to it unchanged, `mountPath` and `Response`. */
export type FetchHandlerOptions = PlantHandlerOptions & {
  /**
   * Where the host mounted the handler, for a host that strips that path from
   * the request's URL before calling it (Hono's `mount()`, h3's
   * `app.mount('/api', …)`): `'/api'`. It only tells clients where the routes
   * live (the OpenAPI document's `servers`); routes are still matched on the
   * URL the handler is given. Default: none.
   */
  readonly mountPath?: string;
  /**
   * The `Response` class answers are built with. Default: the global one.
   * `createNodeServerAdapter` passes `@whatwg-node/server`'s own, which that
   * bridge writes to Node in one `writeHead` and `end` instead of reading a
   * stream out of a global `Response`.
   */
  readonly Response?: typeof Response;
};

/**
 * What the handler reads from its second argument, when it is there: a
 * Worker's `waitUntil`, and a launcher's `draining` and `deadline`. The
 * argument may carry anything else too (see {@link FetchHandler}).
 */
export interface FetchContext {
  /** Keeps background work alive after the answer (Workers). */
  waitUntil?(promise: Promise<unknown>): void;
  /** The server is stopping: the core answers 503 (see `PlantRequest.draining`). */
  readonly draining?: boolean;
  /**
   * Passes once the request has taken too long to arrive (a launcher's
   * request timeout): a body still being read is cut, and the core answers
   * 408 (1402) with `Connection: close`, as the standalone Node server's
   * request timeout; a body being dropped after the answer stops.
   */
  readonly deadline?: RequestDeadline;
}

/**
 * A Fetch-API handler, as `Deno.serve`, `Bun.serve` and Workers take it.
 *
 * The second argument is whatever the host passes beside the request: Bun's
 * `Server`, Deno's `ServeHandlerInfo`, a Worker's `ExecutionContext`, a
 * launcher's {@link FetchContext}. The handler reads only the members of
 * `FetchContext` and ignores the rest. It is typed `FetchContext & object`,
 * not `FetchContext`: an interface whose members are all optional is a "weak
 * type", to which TypeScript refuses any object that shares none of its
 * members, so `Bun.serve({ fetch })` and `Deno.serve(fetch)` would not compile
 * against the runtimes' own types. A member of the same name and another type
 * still fails to compile, as it should.
 *
 * Given to a Worker as its `fetch` itself, it is handed the Worker's `env`
 * there and never sees the execution context: call it as
 * `handler(request, context)` instead, so that an unread body can be dropped
 * after the answer (`waitUntil`).
 */
export type FetchHandler = (request: Request, context?: FetchContext & object) => Promise<Response>;

/**
 * Serves Plant Store as a Fetch-API handler (`Request` → `Response`) for
 * Deno, Bun, Cloudflare Workers and any other WinterCG runtime. The body limit
 * is enforced while streaming, so a chunked upload is never buffered past it.
 * Mounted under a path by a framework that strips it (Hono, h3), it is told
 * that path with the `mountPath` option.
 *
 * @example
 * const fetch = createFetchHandler({
 *   store: createMemoryStore(),
 *   authenticate: staticTokens(['s3cret-token']),
 * });
 * Deno.serve(fetch); // or Bun.serve({ fetch }), or export default { fetch }
 */
export function createFetchHandler(options: FetchHandlerOptions): FetchHandler {
  return createFetchHandlerWithIds(options, undefined);
}

/**
 * Told the request id the core chose for the answer to `request`, just
 * before the handler settles with it, and the trace of its server span when
 * the handler has a `tracer`; see {@link createFetchHandlerWithIds}.
 */
export type OnRequestId = (request: Request, requestId: string, traceId: string | undefined) => void;

/**
 * {@link createFetchHandler}, also telling `onRequestId` the request id of
 * each answer it gives (with the `requestId` option), as the core hands it
 * over: a server's access log gets the id the client gets, without reading
 * it back out of the answer's headers. Not public: exported by
 * `@plant-store/adapter-fetch/internal` for the standalone server.
 *
 * @param onRequestId Called before the handler's promise settles, so whoever
 *   awaits it finds the id recorded.
 * @param sharedBody What a docs file's shared bytes are answered as (not
 *   with a `Response` option, whose class is given the bytes).
 * @example
 * const ids = new WeakMap<Request, string>();
 * const fetch = createFetchHandlerWithIds({ store, authenticate, requestId: true }, (request, id) => ids.set(request, id));
 */
export function createFetchHandlerWithIds(
  options: FetchHandlerOptions,
  onRequestId: OnRequestId | undefined,
  sharedBody: SharedBody = sharedBlob,
): FetchHandler {
  const { mountPath: givenMountPath, Response: Answer = Response, ...coreOptions } = options;
  const mountPath = mountPathOption('createFetchHandler', givenMountPath);
  if (typeof Answer !== 'function') throw new TypeError('createFetchHandler: `Response` must be a Response class');
  // Another class may keep the headers object it is given and add to it
  // (@whatwg-node's adds Content-Length), so it gets a copy of the shared ones.
  const own = options.Response !== undefined;
  const respondTo = createPlantResponder(coreOptions, 'createFetchHandler');
  const toResponse = (plantRequest: FetchPlantRequest, response: PlantResponse, context: FetchContext | undefined): Response => {
    // A body the deadline cut is cancelled here, not dropped: the core's 408 closes the connection.
    plantRequest.discardUnread();
    // A Worker cancels what runs after its answer unless told to wait for it.
    const discarding = plantRequest.discarding;
    if (discarding !== undefined && typeof context?.waitUntil === 'function') context.waitUntil(discarding);
    const bytes = response.bytes;
    // The common answer (a string body, the runtime's own Response) costs least with its headers set after it is made.
    if (bytes === undefined && !own && response.body !== '') return withHeadersSet(response);
    // An empty answer (a preflight) is given no body at all: a Response made with a string body gets
    // `Content-Type: text/plain;charset=UTF-8` (Fetch's "extract a body"), which Deno.serve, workerd and Node's Fetch
    // bridges send (Bun drops it), where the Node handler sends none.
    const body = bytes === undefined ? (response.body === '' ? null : response.body) : own ? bytes : sharedBody(bytes);
    return new Answer(body, { status: response.status, headers: own ? copy(response.headers) : response.headers });
  };
  return function plantStoreFetchHandler(request, context) {
    const plantRequest = new FetchPlantRequest(request, context?.draining === true, context?.deadline, mountPath, (context as Targeted | undefined)?.[TARGET]);
    // One promise per request, settled in the step that has the answer.
    return new Promise((resolve, reject) =>
      respondTo(plantRequest, (response, requestId, traceId) => {
        try {
          const answer = toResponse(plantRequest, response, context);
          if (requestId !== undefined && onRequestId !== undefined) onRequestId(request, requestId, traceId);
          resolve(answer);
        } catch (error) {
          reject(error);
        }
      }),
    );
  };
}

/**
 * A global `Response` of a string body, its headers set one by one on the
 * `Headers` it made: on Bun 1.4.5 a headers object in the init costs about
 * 1,900 instructions more per answer than the same headers set afterwards
 * (the init's dictionary conversion, then the object's own property walk),
 * and an init with only a `status` 860 more than none; a create counted
 * 31,694 instructions before and 30,049 after (bench/instructions.mjs), and
 * took about a quarter less time on Deno 2.9 (bench/in-process.mjs). The string body's
 * `Content-Type: text/plain;charset=UTF-8` is replaced by the answer's own, as
 * the init's headers would have kept it from being added; an answer without
 * one keeps it, as with the init.
 */
function withHeadersSet(response: PlantResponse): Response {
  const answer = response.status === 200 ? new Response(response.body) : new Response(response.body, { status: response.status });
  const target = answer.headers;
  const headers = response.headers;
  for (const name in headers) target.set(name, headers[name]!);
  return answer;
}

/** A context that may carry the request target (the node:http bridge's). */
type Targeted = { readonly [TARGET]?: string };

function copy(headers: Readonly<Record<string, string>>): Record<string, string> {
  const copied: Record<string, string> = {};
  for (const name in headers) copied[name] = headers[name]!;
  return copied;
}

/**
 * What a shared body (a docs file's bytes, answered to every client that
 * asks) is handed to the runtime as: by default {@link sharedBlob}. The
 * standalone Bun server hands large ones over a slice a turn. The result is
 * typed by the runtime's own `Response` rather than as `BodyInit`, a DOM name
 * that Bun's types (`@types/bun`, no DOM) do not declare.
 */
export type SharedBody = (bytes: Uint8Array<ArrayBuffer>) => NonNullable<ConstructorParameters<typeof Response>[0]>;

// One Blob per shared body (the docs files). A Response copies the bytes of a
// Uint8Array body (Fetch's "extract a body"), but shares a Blob's, which is
// immutable: 1,000 clients that never read a 1.7 MB file then cost Bun 6 MiB,
// not 200 (runtime-tests/slow-readers.test.ts).
const BLOBS = new WeakMap<Uint8Array, Blob>();

/** The one Blob of a shared body, made on its first answer and kept as long as the bytes. */
export function sharedBlob(bytes: Uint8Array<ArrayBuffer>): Blob {
  let blob = BLOBS.get(bytes);
  if (blob === undefined) BLOBS.set(bytes, (blob = new Blob([bytes])));
  return blob;
}
