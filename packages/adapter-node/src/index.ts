export { createNodeHandler } from './create-node-handler.ts';
export { NodePlantRequest } from './node-plant-request.ts';

export type { NodeHandler, NodeHandlerOptions } from './create-node-handler.ts';
