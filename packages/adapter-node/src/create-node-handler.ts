// Runs on Node (and the runtimes that serve node:http: Deno, Bun): the request listener that hands node:http's requests to the core.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPlantResponder, mountPathOption, type PlantHandlerOptions, type PlantResponse } from '@plant-store/core';
import { endAfterBody } from './end-after-body.ts';
import { asksToUpgrade, isServerClosing, NodePlantRequest, owedContinue, rawHeader } from './node-plant-request.ts';

/** Options of {@link createNodeHandler}: the core's handler options, handed to it unchanged, and `mountPath`. */
export type NodeHandlerOptions = PlantHandlerOptions & {
  /**
   * Where the host mounted the handler, for a host that strips that path from
   * `req.url` without saying so (`@fastify/middie`'s `app.use('/api', …)`):
   * `'/api'`. It only tells clients where the routes live (the OpenAPI
   * document's `servers`); routes are still matched on `req.url`. Default:
   * Express's and Connect's `req.baseUrl`, else none.
   */
  readonly mountPath?: string;
};

/**
 * A `node:http` request listener that is also Connect/Express middleware:
 * with `next`, a path it does not serve is handed on untouched.
 */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * Serves Plant Store from Node's own `req`/`res`, with no WHATWG
 * `Request`/`Response` in between. Mount it anywhere: as the listener of
 * `http.createServer`, or under a path in Express (`app.use('/api', handler)`
 * serves `/api/plants`, since Express strips its mount path from `req.url`).
 * A host that strips its mount path without keeping it in `req.baseUrl` is
 * told it with the `mountPath` option.
 *
 * `Expect: 100-continue`: Node answers `100 Continue` by itself before any
 * listener runs, so a client is invited to upload before its credentials are
 * checked. To send 100 only once the request is authenticated and its declared
 * size accepted, also give the handler Node's `checkContinue` event, as
 * `serve()` of `@plant-store/server` does:
 * `server.on('checkContinue', handler)`.
 *
 * @example
 * import { createServer } from 'node:http';
 * const handler = createNodeHandler({
 *   store: createMemoryStore(),
 *   authenticate: staticTokens([process.env.TOKEN!]),
 * });
 * createServer(handler).listen(8080);
 */
export function createNodeHandler(options: NodeHandlerOptions): NodeHandler {
  return createNodeHandlerWithIds(options, undefined);
}

/**
 * Told the request id the core chose for the answer written to `res`, just
 * before it is written, and the trace of its server span when the handler
 * has a `tracer`; see {@link createNodeHandlerWithIds}.
 */
export type OnRequestId = (res: ServerResponse, requestId: string, traceId: string | undefined) => void;

/**
 * {@link createNodeHandler}, also telling `onRequestId` the request id of
 * each answer it writes (with the `requestId` option), as the core hands it
 * over: a server's access log gets the id the client gets, without choosing
 * it before the core or reading it back out of the written answer. Not
 * public: exported by `@plant-store/adapter-node/internal` for the
 * standalone server.
 *
 * @param onRequestId Called before the answer is written, so a listener of
 *   the response's 'finish' event finds the id recorded; not called for a
 *   path handed on to `next`.
 * @example
 * const ids = new WeakMap<ServerResponse, string>();
 * const handler = createNodeHandlerWithIds({ store, authenticate, requestId: true }, (res, id) => ids.set(res, id));
 */
export function createNodeHandlerWithIds(options: NodeHandlerOptions, onRequestId: OnRequestId | undefined): NodeHandler {
  const { mountPath: givenMountPath, ...coreOptions } = options;
  const mountPath = mountPathOption('createNodeHandler', givenMountPath);
  const respondTo = createPlantResponder(coreOptions, 'createNodeHandler');
  return function plantStoreNodeHandler(req, res, next) {
    // Written as soon as the core has the answer: at once for an answer that
    // needs no wait, else in the step that ends the wait.
    respondTo(new NodePlantRequest(req, res, mountPath), (response, requestId, traceId) => {
      try {
        if (response.unmatched === true && next !== undefined) next();
        else {
          if (requestId !== undefined && onRequestId !== undefined) onRequestId(res, requestId, traceId);
          writeResponse(req, res, response);
        }
      } catch (error) {
        // Writing to a broken socket, or the host's next().
        res.destroy(error as Error);
      }
    });
  };
}

function writeResponse(req: IncomingMessage, res: ServerResponse, response: PlantResponse): void {
  if (res.headersSent || res.destroyed) return;
  // A closing server should not invite the next request on this connection; nor should an answer to a request still
  // owed a 100 (refused before its body was asked for), whose client may yet send the body it was not invited to
  // send (docs/contract.md, "Expect: 100-continue"). Node's own response closes then; Deno 2.9's node:http did not.
  // A request that asked to upgrade (`Upgrade`, which nothing here accepts) is answered, not upgraded, and node:http
  // reads nothing more on its connection: the answer says so rather than leave requests pipelined behind it waiting.
  if (isServerClosing(req) || owedContinue(res) || asksToUpgrade(req)) res.shouldKeepAlive = false;
  // Shared bytes when the core has them (the docs files), so a slow reader holds no copy of its own.
  const body = response.bytes ?? response.body;
  // One writeHead with every header, Content-Length included: Node then sends
  // head and body in a single write, as a hand-written server would.
  res.writeHead(response.status, headerList(response.headers, String(Buffer.byteLength(body)), req.httpVersionMajor === 2));
  // An answer given during the 'request' event (a 401, a 404, /healthz) comes
  // before Node has seen the end of even a bodiless request: only a body that
  // may still follow is worth waiting for.
  if (req.complete || !bodyMayFollow(req)) {
    res.end(body);
    return;
  }
  if (onDenoOverTls(req)) {
    // Deno over TLS serves nothing more on a connection after an answer written in two steps
    // (packages/server/src/deno/QUIRKS.md, deno-https-two-step-stalls): it ends at once, and the
    // rest of the body is read and dropped.
    res.end(body);
    req.resume();
    return;
  }
  // Part of the body is still on its way: send the answer whole, drop the
  // rest of the body, and end once it is in.
  res.write(body);
  endAfterBody(req, res);
}

/**
 * `headers` and `content-length` as the flat `[name, value, …]` list
 * `writeHead` takes, in an array made at its final size: pushing onto an
 * empty one cost Node 24 65 to 85 ns more per answer (its growth, measured
 * alone over 300,000 answers), and grows it to 17 slots where 6 are used.
 * Over HTTP/2 without `Connection`, which it forbids (RFC 9113 §8.2.2; Node
 * throws): closing is the server's to do there, by stream or GOAWAY.
 */
function headerList(headers: Readonly<Record<string, string>>, contentLength: string, http2: boolean): string[] {
  if (http2 && headers['connection'] !== undefined) {
    const { connection: _, ...rest } = headers;
    return headerList(rest, contentLength, false);
  }
  let count = 0;
  for (const _ in headers) count++;
  const list = new Array<string>(2 * count + 2);
  let i = 0;
  for (const name in headers) {
    list[i++] = name;
    list[i++] = headers[name]!;
  }
  list[i++] = 'content-length';
  list[i] = contentLength;
  return list;
}

/** Whether `req` came to Deno's node:https (or another TLS server on Deno). */
function onDenoOverTls(req: IncomingMessage): boolean {
  return process.versions.deno !== undefined && (req.socket as { encrypted?: boolean } | null)?.encrypted === true;
}

/** Whether a body may follow the head (RFC 9112 §6.3): chunked, or a length above 0. */
function bodyMayFollow(req: IncomingMessage): boolean {
  const length = rawHeader(req, 'content-length');
  return (length !== undefined && length !== '0') || rawHeader(req, 'transfer-encoding') !== undefined;
}
