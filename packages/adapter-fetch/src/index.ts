// Runs on any Fetch-API runtime (Deno, Bun, Workers, Node 20+): the public entry of the adapter.
export { createFetchHandler } from './create-fetch-handler.ts';

export type { FetchContext, FetchHandler, FetchHandlerOptions } from './create-fetch-handler.ts';
export type { RequestDeadline } from './request-deadline.ts';
