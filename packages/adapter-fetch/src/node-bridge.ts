// Runs on any Fetch-API runtime (it imports nothing of Node's), for Node: the node:http bridge over the copy of @whatwg-node/server it is handed.
import { createFetchHandler, type FetchContext, type FetchHandlerOptions } from './create-fetch-handler.ts';
import { TARGET } from './fetch-plant-request.ts';

/**
 * The two members of `@whatwg-node/server` the bridge uses: its module
 * namespace object (`await import('@whatwg-node/server')`) is one, of every
 * version the peer range allows.
 */
export interface WhatwgNodeServer<Adapter> {
  createServerAdapter(handle: (request: Request, context?: NodeServerContext) => Promise<Response>): Adapter;
  readonly Response: typeof Response;
}

/** What of the server context @whatwg-node/server hands a handler the bridge reads: Node's request, when it came through node:http. */
export interface NodeServerContext {
  readonly req?: { readonly url?: unknown; readonly originalUrl?: unknown };
}

/**
 * `createNodeServerAdapter` over the copy of `@whatwg-node/server` it is
 * handed. Not public: exported by `@plant-store/adapter-fetch/internal` so that
 * the tests serve the handler through the oldest and the newest version the
 * peer range allows, with the same code users get.
 *
 * @example
 * const adapter = bridgeFetchHandler(await import('@whatwg-node/server'), { store, authenticate });
 */
export function bridgeFetchHandler<Adapter>(whatwg: WhatwgNodeServer<Adapter>, options: FetchHandlerOptions): Adapter {
  // Answers in the bridge's own Response, which it writes without a stream: over twice the throughput of the global one.
  const handler = createFetchHandler({ ...options, Response: options.Response ?? whatwg.Response });
  // The adapter's second argument is its server context, not a Worker's; from 0.13 a third, its Fetch API, is not needed.
  return whatwg.createServerAdapter((request: Request, context?: NodeServerContext) => {
    // The target @whatwg-node/server builds the URL from: a Connect-style mount's `originalUrl`, else `url`.
    const target = context?.req?.originalUrl || context?.req?.url;
    // @whatwg-node/server 0.11 to 0.13 builds the URL as protocol, Host and target joined, so an absolute-form target
    // (`POST http://example.com/plants`) came out as `http://example.comhttp://example.com/plants` and got 404: the
    // handler is given the target as node:http read it, which the core routes by its path as every other host does.
    if (typeof target === 'string' && target.charCodeAt(0) !== 0x2f) return handler(request, { [TARGET]: target } as FetchContext);
    return handler(request);
  });
}
