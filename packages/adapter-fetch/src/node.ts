export { createNodeServerAdapter } from './create-node-server-adapter.ts';

export type { NodeServerAdapter } from './create-node-server-adapter.ts';
