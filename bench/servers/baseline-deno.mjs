// Baseline: raw Deno.serve with the hand-written handler.
/// <reference path="./globals.d.ts" />
import { leanFetchHandler } from './baseline-fetch.mjs';
import { host, port } from './baseline-logic.mjs';

Deno.serve({ hostname: host, port, onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`) }, leanFetchHandler());
