// The same hand-written work as a plain Fetch handler (Request → Response),
// reading the body with `request.text()` after a Content-Length check.
import { createPlantLogic, MAX_BODY_BYTES, requestId, TOO_LARGE, token } from './baseline-logic.mjs';

/**
 * The lean Fetch handler, answering with `Answer`: the global `Response`, or
 * the cheaper one a bridge such as @whatwg-node/server brings.
 *
 * @param {typeof Response} [Answer]
 * @returns {(request: Request) => Promise<Response>}
 */
export function leanFetchHandler(Answer = Response) {
  const handle = createPlantLogic(token);
  return async function fetchHandler(request) {
    const url = request.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const query = url.indexOf('?', start);
    const path = query < 0 ? url.slice(start) : url.slice(start, query);
    const headers = { 'content-type': 'application/json', 'x-request-id': requestId(request.headers.get('x-request-id')) };
    if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) return new Answer(TOO_LARGE[1], { status: TOO_LARGE[0], headers });
    const body = request.method === 'POST' ? await request.text() : '';
    const [status, json] = handle(request.method, path, request.headers.get('authorization'), request.headers.get('content-type'), body);
    return new Answer(json, { status, headers });
  };
}
