// Plant Store's checks (checks-logic.mjs) in a hand-written node:http request
// listener, reading the body by `data`/`end` as the baseline listener does.
import { createChecks, requestIdFor } from './checks-logic.mjs';

/**
 * A `node:http` request listener doing Plant Store's checks by hand.
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
export function checksNodeListener() {
  const { admit, create } = createChecks();
  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {import('@plant-store/core').PlantResponse} answer
   */
  const write = (req, res, { status, headers, body }) => {
    const list = [
      'x-request-id',
      requestIdFor(/** @type {string | undefined} */ (req.headers['x-request-id'])),
      'content-length',
      String(Buffer.byteLength(body)),
    ];
    for (const name in headers) list.push(name, /** @type {string} */ (headers[name]));
    res.writeHead(status, list);
    res.end(body);
  };
  return (req, res) => {
    const url = /** @type {string} */ (req.url); // always set on a server's request
    const query = url.indexOf('?');
    const refused = admit(req.method ?? '', query < 0 ? url : url.slice(0, query), req.headers.authorization, req.headers['content-length']);
    if (refused !== undefined) {
      req.resume();
      write(req, res, refused);
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
    req.on('end', () => write(req, res, create(req.headers['content-type'], chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks))));
  };
}
