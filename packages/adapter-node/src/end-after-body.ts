import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long an answer waits for the rest of an unwanted body before the connection may close. */
export const LINGER_MS = 2_000;

/**
 * Ends an answer whose request body is still on its way (a 401 never reads
 * it, a 413 stops at the limit) once that body is all in, read and dropped,
 * or after {@link LINGER_MS}. Ending at once could close the connection under
 * a client that is still sending, and the reset could lose the answer.
 */
export function endAfterBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) {
    res.end();
    return;
  }
  req.resume();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    res.end();
  };
  const timer = setTimeout(end, LINGER_MS);
  req.once('end', end);
  req.once('close', end);
}
