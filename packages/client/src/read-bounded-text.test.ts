// Runs under vitest on Node: readBoundedText on WHATWG Responses built from streams, no server needed.
import { describe, expect, it } from 'vitest';
import { readBoundedText } from './read-bounded-text.ts';

/** A Response whose body yields `chunks` and records whether it was cancelled and how many chunks were pulled. */
function streamed(chunks: readonly string[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks.length) return controller.close();
      controller.enqueue(encoder.encode(chunks[seen.pulled++]));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), seen };
}

describe('readBoundedText', () => {
  it('reads a body of exactly the bound, a character split across chunks included', async () => {
    const bytes = new TextEncoder().encode('🌵');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 2));
        controller.enqueue(bytes.slice(2));
        controller.close();
      },
    });
    expect(await readBoundedText(new Response(body), 4)).toEqual({ ok: true, text: '🌵' });
  });

  it('stops at the chunk that passes the bound and cancels the rest', async () => {
    const { response, seen } = streamed(['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee', 'ffff']);
    expect(await readBoundedText(response, 10)).toEqual({ ok: false, bytes: 12, declared: false });
    expect(seen.cancelled).toBe(true);
    // The stream may pull one chunk ahead of the reader, never to the end.
    expect(seen.pulled).toBeLessThan(5);
  });

  it('refuses a Content-Length past the bound without reading a byte', async () => {
    const { response, seen } = streamed(['{}'], { 'content-length': '11' });
    expect(await readBoundedText(response, 10)).toEqual({ ok: false, bytes: 11, declared: true });
    expect(seen.cancelled).toBe(true);
    // A Content-Length it cannot read is left to the count.
    expect(await readBoundedText(streamed(['{}'], { 'content-length': '99, 99' }).response, 10)).toEqual({ ok: true, text: '{}' });
  });

  it('reads an empty body as empty text', async () => {
    expect(await readBoundedText(new Response(null, { status: 204 }), 10)).toEqual({ ok: true, text: '' });
  });
});
