// The hand-written node:http request listener: the lean baseline's work,
// reading the body by `data`/`end` with the 1 MiB limit.
import { createPlantLogic, MAX_BODY_BYTES, requestId, TOO_LARGE, token } from './baseline-logic.mjs';

/**
 * A `node:http` request listener doing the baseline's work over a fresh `Map`.
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
export function leanNodeListener() {
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
  return (req, res) => {
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
  };
}
