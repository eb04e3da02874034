// A plain hand-written Fetch handler served on node:http by @whatwg-node/server.
import { createServer } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import { fetchHandler } from './baseline-fetch.mjs';
import { host, port } from './baseline-logic.mjs';

const server = createServer(createServerAdapter(fetchHandler));
server.listen(port, host, () => console.log(`listening on http://${host}:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`));
