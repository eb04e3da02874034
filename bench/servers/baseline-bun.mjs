// Baseline: raw Bun.serve with the hand-written handler.
/// <reference path="./globals.d.ts" />
import { leanFetchHandler } from './baseline-fetch.mjs';
import { host, port } from './baseline-logic.mjs';

const server = Bun.serve({ hostname: host, port, fetch: leanFetchHandler() });
console.log(`listening on ${server.url.origin}`);
