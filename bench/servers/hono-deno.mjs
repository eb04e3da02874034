// Hono on Deno.serve.
/// <reference path="./globals.d.ts" />
import { host, port } from './baseline-logic.mjs';
import { app } from './hono-app.mjs';

Deno.serve({ hostname: host, port, onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`) }, app.fetch);
