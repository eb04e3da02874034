// Hono on Bun.serve.
/// <reference path="./globals.d.ts" />
import { host, port } from './baseline-logic.mjs';
import { app } from './hono-app.mjs';

const server = Bun.serve({ hostname: host, port, fetch: app.fetch });
console.log(`listening on ${server.url.origin}`);
