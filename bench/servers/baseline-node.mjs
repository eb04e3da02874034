// Baseline: a hand-written node:http server doing the same work, reading the
// body by `data`/`end` with the 1 MiB limit.
import { createServer } from 'node:http';
import { createPlantLogic, host, MAX_BODY_BYTES, port, requestId, TOO_LARGE, token } from './baseline-logic.mjs';

const handle = createPlantLogic(token);
/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {import('./baseline-logic.mjs').Answer} answer
 */
const answer = (req, res, [status, json]) => {
  const id = requestId(req.headers['x-request-id']);
  res.writeHead(status, ['content-type', 'application/json', 'x-request-id', id, 'content-length', String(Buffer.byteLength(json))]);
  res.end(json);
};
const server = createServer((req, res) => {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  req.on('data', (/** @type {Buffer} */ chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY_BYTES) return answer(req, res, TOO_LARGE);
    const url = /** @type {string} */ (req.url); // always set on a server's request
    const query = url.indexOf('?');
    const body = chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]).toString() : Buffer.concat(chunks).toString();
    answer(req, res, handle(req.method, query < 0 ? url : url.slice(0, query), req.headers.authorization, req.headers['content-type'], body));
  });
});
server.listen(port, host, () => console.log(`listening on http://${host}:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`));
