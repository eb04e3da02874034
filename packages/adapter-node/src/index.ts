export { createNodeHandler } from './create-node-handler.ts';
export { endAfterBody, LINGER_MS } from './end-after-body.ts';
export { isServerClosing, NodePlantRequest, rawHeader } from './node-plant-request.ts';

export type { NodeHandler, NodeHandlerOptions } from './create-node-handler.ts';
