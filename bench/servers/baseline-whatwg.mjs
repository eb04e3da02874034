// A plain hand-written Fetch handler served on node:http by @whatwg-node/server,
// answering with the bridge's own Response (which it writes without a stream),
// as Plant Store's createNodeServerAdapter does.
import { createServer } from 'node:http';
import { createServerAdapter, Response } from '@whatwg-node/server';
import { leanFetchHandler } from './baseline-fetch.mjs';
import { host, port } from './baseline-logic.mjs';

const server = createServer(createServerAdapter(leanFetchHandler(Response)));
server.listen(port, host, () => console.log(`listening on http://${host}:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`));
