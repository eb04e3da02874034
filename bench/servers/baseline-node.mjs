// Baseline: a hand-written node:http server doing the same work, reading the
// body by `data`/`end` with the 1 MiB limit.
import { createServer } from 'node:http';
import { leanNodeListener } from './baseline-node-listener.mjs';
import { host, port } from './baseline-logic.mjs';

const server = createServer(leanNodeListener());
server.listen(port, host, () => console.log(`listening on http://${host}:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`));
