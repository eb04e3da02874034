export { createFetchHandler } from './create-fetch-handler.ts';
export { FetchPlantRequest, pathAndQuery } from './fetch-plant-request.ts';

export type { FetchContext, FetchHandler, FetchHandlerOptions } from './create-fetch-handler.ts';
export type { RequestDeadline } from './request-deadline.ts';
