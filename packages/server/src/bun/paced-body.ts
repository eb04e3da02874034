// Runs on Bun (the standalone Bun server): a large shared body handed to Bun.serve a slice a turn.
import { sharedBlob } from '@plant-store/adapter-fetch/internal';
import { paceSlice, SLICE_BYTES, TURN_BUDGET_BYTES } from '../common/pace-slice.ts';

/**
 * A docs file's shared bytes as the standalone Bun server answers them: up
 * to {@link SLICE_BYTES} as the one shared Blob, larger ones as a stream of
 * slices of those same bytes (no copy), at most {@link TURN_BUDGET_BYTES} a
 * turn of the event loop for every answer together, each slice pulled only
 * once Bun has written the one before it.
 *
 * A Blob or bytes body is written whole into the kernel's buffers at once:
 * when 1,000 clients asked for the 1.7 MB docs script and read none of it,
 * Bun 1.4.5 spent 0.2 to 1.8 s in one turn writing their answers (measured in
 * runtime-tests/latency, slow-readers-latency), and a create waiting behind
 * them waited as long; the overload gate, seeing the event loop that late,
 * then refused the next creates with 503 (1503). Paced, the longest create
 * took 16 to 25 ms. The Node server paces its large answers through the same
 * paceSlice.
 *
 * Bun 1.4.5 sends a stream body chunked, dropping the Content-Length given
 * (oven-sh/bun#10507; bun/QUIRKS.md, bun-stream-drops-content-length), so on
 * Bun these files arrive chunked, and their HEAD answers say so too.
 */
export function pacedBody(bytes: Uint8Array<ArrayBuffer>): BodyInit {
  if (bytes.byteLength <= SLICE_BYTES) return sharedBlob(bytes);
  let offset = 0;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        return new Promise<void>((resolve) =>
          paceSlice(() => {
            resolve();
            // The client went away while this pull waited for its turn.
            if (cancelled) return 0;
            const start = offset;
            offset = Math.min(start + SLICE_BYTES, bytes.byteLength);
            controller.enqueue(bytes.subarray(start, offset));
            if (offset === bytes.byteLength) controller.close();
            return offset - start;
          }),
        );
      },
      cancel() {
        cancelled = true;
      },
    },
    // Nothing read ahead: a slice is pulled when Bun asks for one, once the socket took the last.
    { highWaterMark: 0 },
  );
}
