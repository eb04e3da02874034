// Baseline: raw Bun.serve with the hand-written handler.
/// <reference path="./globals.d.ts" />
import { fetchHandler } from './baseline-fetch.mjs';
import { host, port } from './baseline-logic.mjs';

const server = Bun.serve({ hostname: host, port, fetch: fetchHandler });
console.log(`listening on ${server.url.origin}`);
