export { createNodeHandler } from './create-node-handler.ts';
export { NodePlantRequest } from './node-plant-request.ts';
export { serve } from './serve.ts';

export type { NodeHandler, NodeHandlerOptions } from './create-node-handler.ts';
export type { RunningServer, ServeOptions } from './serve.ts';
