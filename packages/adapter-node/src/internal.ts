// Runs on Node (and Deno's node:http): helpers the standalone server of @plant-store/server shares with this adapter.
// Not public: `@plant-store/adapter-node/internal` may change in any release, without a major version.
// It exists so that the server answers as the adapter does without a copy of these lines, and learns
// the request id the core chose for each answer it writes.
export { endAfterBody } from './end-after-body.ts';
export { asksToUpgrade, isServerClosing, rawHeader } from './node-plant-request.ts';
export { createNodeHandlerWithIds } from './create-node-handler.ts';

export type { OnRequestId } from './create-node-handler.ts';
