// Runs on Node (and the runtimes that serve node:http: Deno, Bun): the public entry of the adapter.
export { createNodeHandler } from './create-node-handler.ts';

export type { NodeHandler, NodeHandlerOptions } from './create-node-handler.ts';
