// Runs wherever the client runs: browsers, Node 20+, Bun, Deno and Workers (a fetch Response's body stream and TextDecoder).
import { raceAbort } from './race-abort.ts';

/** An answer's body as text, or how far past the bound it was found to be. */
export type BoundedText =
  | { readonly ok: true; readonly text: string }
  /** `bytes` is the declared `Content-Length` when `declared`, else what was read before stopping. */
  | { readonly ok: false; readonly bytes: number; readonly declared: boolean };

/** A `Content-Length` as its number; anything else (absent, a list, garbage) as undefined, left to the stream count. */
function declaredLength(value: string | null): number | undefined {
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/**
 * Reads `response`'s body as UTF-8 text, at most `maxBytes` of it. A
 * `Content-Length` above the bound is refused before a byte is read; a body
 * without one is read as a stream and cancelled as soon as it passes the
 * bound, so that neither `response.text()`'s whole buffer nor the rest of the
 * body is ever held. The bytes counted are those after any content decoding,
 * so a small compressed body that inflates past the bound is stopped too.
 * A failure of the stream (a cut connection, the attempt's abort) rejects,
 * and so does `signal`'s abort, whether or not it reaches the stream.
 */
export async function readBoundedText(response: Response, maxBytes: number, signal?: AbortSignal): Promise<BoundedText> {
  const declared = declaredLength(response.headers.get('content-length'));
  if (declared !== undefined && declared > maxBytes) {
    // Not awaited: a runtime may wait on the connection to cancel, and nothing here depends on it.
    response.body?.cancel().catch(() => {});
    return { ok: false, bytes: declared, declared: true };
  }
  if (response.body === null) return { ok: true, text: '' };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  try {
    for (;;) {
      // A body whose stream the signal does not reach (a `fetch` option that did not pass it on) is stopped here.
      const { done, value } = await (signal === undefined ? reader.read() : raceAbort(reader.read(), signal));
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        reader.cancel().catch(() => {});
        return { ok: false, bytes, declared: false };
      }
      parts.push(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
  parts.push(decoder.decode());
  return { ok: true, text: parts.join('') };
}
