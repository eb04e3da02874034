// Baseline: a hand-written node:http server doing the same work.
import { createServer } from 'node:http';
import { createPlantLogic, host, port, token } from './baseline-logic.mjs';

const handle = createPlantLogic(token);
const server = createServer((req, res) => {
  /** @type {Buffer[]} */
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const url = /** @type {string} */ (req.url); // always set on a server's request
    const query = url.indexOf('?');
    const body = chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]).toString() : Buffer.concat(chunks).toString();
    const [status, json] = handle(req.method, query < 0 ? url : url.slice(0, query), req.headers.authorization, req.headers['content-type'], body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  });
});
server.listen(port, host, () => console.log(`listening on http://${host}:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`));
