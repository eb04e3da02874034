// Hono on @hono/node-server.
import { serve } from '@hono/node-server';
import { host, port } from './baseline-logic.mjs';
import { app } from './hono-app.mjs';

serve({ fetch: app.fetch, port, hostname: host }, (info) => console.log(`listening on http://${host}:${info.port}`));
