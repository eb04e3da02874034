// Plant Store's checks (checks-logic.mjs) in a hand-written Fetch handler,
// reading the body with `request.bytes()`: strict UTF-8 needs the bytes, which
// `request.text()` would have decoded leniently.
import { JSON_HEADERS } from '@plant-store/core';
import { createChecks, requestIdFor } from './checks-logic.mjs';

/**
 * A Fetch handler doing Plant Store's checks by hand.
 * @returns {(request: Request) => Promise<Response>}
 */
export function checksFetchHandler() {
  const { admit, create } = createChecks();
  return async function fetchHandler(request) {
    const url = request.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const query = url.indexOf('?', start);
    const headers = request.headers;
    const id = requestIdFor(headers.get('x-request-id') ?? undefined);
    const path = query < 0 ? url.slice(start) : url.slice(start, query);
    const answer =
      admit(request.method, path, headers.get('authorization') ?? undefined, headers.get('content-length') ?? undefined) ??
      create(headers.get('content-type') ?? undefined, await request.bytes());
    // A literal for the created plant's answer, as Plant Store builds its headers.
    const answerHeaders =
      answer.headers === JSON_HEADERS ? { 'content-type': 'application/json', 'x-request-id': id } : { ...answer.headers, 'x-request-id': id };
    return new Response(answer.body, { status: answer.status, headers: answerHeaders });
  };
}
