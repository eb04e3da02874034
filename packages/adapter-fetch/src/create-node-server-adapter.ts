// Runs on Node, with @whatwg-node/server 0.11 to 0.13 (0.13 needs Node 22.15 or later): the public node:http bridge.
import { createServerAdapter, Response, type ServerAdapter, type ServerAdapterBaseObject } from '@whatwg-node/server';
import type { FetchHandlerOptions } from './create-fetch-handler.ts';
import { bridgeFetchHandler } from './node-bridge.ts';

/** What {@link createNodeServerAdapter} returns: a `@whatwg-node/server` adapter. */
export type NodeServerAdapter = ServerAdapter<object, ServerAdapterBaseObject<object>>;

/**
 * The Fetch handler served on `node:http` through `@whatwg-node/server`: the
 * result is a request listener for `http.createServer` (and also has
 * `.fetch` / `.handle`). Prefer `@plant-store/adapter-node` on Node when speed
 * matters; use this to run exactly the code a Worker runs.
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer(createNodeServerAdapter({ store, authenticate })).listen(8080);
 */
export function createNodeServerAdapter(options: FetchHandlerOptions): NodeServerAdapter {
  return bridgeFetchHandler<NodeServerAdapter>({ createServerAdapter, Response }, options);
}
