// Runs on Node (and the runtimes that serve node:http: Deno, Bun): ending an answer whose request body is still arriving.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long an answer waits for the rest of an unwanted body before the connection may close. */
export const LINGER_MS = 2_000;

/**
 * Ends an answer whose request body is still on its way (a 401 never reads
 * it, a 413 stops at the limit) once that body is all in, read and dropped,
 * or after {@link LINGER_MS}. Ending at once could close the connection under
 * a client that is still sending, and the reset could lose the answer.
 *
 * Over HTTP/2 a stream's end closes nothing else, so the answer ends at once
 * and the rest of the body is read and dropped as it comes. The stream is not
 * reset with `NO_ERROR` (RFC 9113 §8.1 lets a server ask a client to stop
 * sending so): curl 7.88 (nghttp2 1.52) then loses the answer whenever its
 * upload is rate-limited (`--limit-rate`: exit 92, "Stream error in the HTTP/2
 * framing layer"), while it stops sending by itself once the answer is whole.
 */
export function endAfterBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) {
    res.end();
    return;
  }
  if (req.httpVersionMajor === 2) {
    res.end();
    req.resume();
    return;
  }
  req.resume();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    // An answer that closes its connection closes it once sent, the rest of the body unread or not: Deno 2.9's
    // node:http otherwise keeps the socket open while the request is incomplete (a request still owed a 100).
    if (res.shouldKeepAlive) res.end();
    else res.end(() => req.socket?.end());
  };
  const timer = setTimeout(end, LINGER_MS);
  req.once('end', end);
  req.once('close', end);
}
