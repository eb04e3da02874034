// Runs on any Fetch-API runtime: helpers the standalone server of @plant-store/server shares with this adapter.
// Not public: `@plant-store/adapter-fetch/internal` may change in any release, without a major version.
// It exists so that the server's access log reads a URL as the adapter does without a copy of these lines,
// and learns the request id the core chose for each answer, and so that the Bun server can hand large docs
// files to Bun its own way (paced) while small ones stay the adapter's shared Blob; and so that the tests serve
// the node:http bridge through the oldest and the newest @whatwg-node/server the peer range allows.
export { pathAndQuery } from './fetch-plant-request.ts';
export { createFetchHandlerWithIds, sharedBlob } from './create-fetch-handler.ts';
export { bridgeFetchHandler } from './node-bridge.ts';

export type { OnRequestId, SharedBody } from './create-fetch-handler.ts';
export type { WhatwgNodeServer } from './node-bridge.ts';
