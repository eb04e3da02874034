// Runs wherever node-http/serve.ts does (Node, Deno's node:http, the workerd launcher's front).
import type { IncomingMessage } from 'node:http';
import { rawHeader } from '@plant-store/adapter-node/internal';
import { isRequestId } from '@plant-store/core';

/**
 * The id of a request to `serve()` with the `requestId` option: its
 * `X-Request-Id` when the core would echo it ({@link isRequestId}), else a new
 * UUID, which is then written into the request as its only `X-Request-Id`. So
 * the core echoes exactly the id the access log writes, while the Node
 * adapter writes answers in one `writeHead` that leaves nothing to read back.
 */
export function takeRequestId(req: IncomingMessage): string {
  // Repeated `X-Request-Id` headers are joined with `, `, as the core joins them: two of them are no id.
  const given = rawHeader(req, 'x-request-id');
  if (typeof given === 'string' && isRequestId(given)) return given;
  const made = crypto.randomUUID();
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === 'x-request-id') raw.splice(i, 2);
  raw.push('x-request-id', made);
  req.headers['x-request-id'] = made;
  return made;
}
