// Runs on Node, in the servers serveNodeHttp runs there (serve() and the workerd front): large bodies written a slice a turn.
import { ServerResponse, type IncomingMessage } from 'node:http';
import { paceSlice, SLICE_BYTES, TURN_BUDGET_BYTES } from '../common/pace-slice.ts';

/** Writes `bytes` to `res` a slice a turn (paceSlice); what a full socket waits for is its 'drain'. */
function paceBody(res: PacedResponse, bytes: Uint8Array): void {
  let offset = 0;
  const slice = (): number => {
    if (res.destroyed || res.writableEnded) return 0;
    if (res.writableNeedDrain) {
      res.once('drain', () => paceSlice(slice));
      return 0;
    }
    const end = Math.min(offset + SLICE_BYTES, bytes.byteLength);
    const chunk = bytes.subarray(offset, end);
    offset = end;
    try {
      if (end === bytes.byteLength) res.endWhole(chunk);
      else {
        res.write(chunk);
        paceSlice(slice);
      }
    } catch (error) {
      // One broken answer must not strand the others waiting for their slices.
      res.destroy(error as Error);
    }
    return chunk.byteLength;
  };
  paceSlice(slice);
}

/**
 * A `ServerResponse` that writes a body given whole to `end()`, larger than
 * {@link SLICE_BYTES}, after a head written with `writeHead` (as the
 * handlers here write it, with its Content-Length), one slice at a time: at
 * most {@link TURN_BUDGET_BYTES} a turn of the event loop for every
 * connection together, the first slice included. The kernel takes a large
 * write whole when its buffers have room (on loopback one `write` of the
 * 1.7 MB docs script took all of it; a CPU profile of Node 24 as 1,000
 * clients asked for it showed `writev` 248 ms of 1.2 s, about 250 µs each), so
 * a thousand clients asking for the docs script at once would keep the
 * event loop copying for milliseconds between two creates; paced, a create
 * waits for one budget at most. Measured in runtime-tests/latency (1,000
 * such clients never reading, their process in the idle scheduling class,
 * a fetch client timed): on Node 24 the p99 of its creates meanwhile was 1.00
 * to 1.15× its usual, against 1.18 to 1.85× unpaced; Node 20 and 22 the same
 * either way, within the noise.
 *
 * Node only: on Deno a chain of `setImmediate` keeps the runtime from
 * polling the network (one echo round trip per about 120 immediates), so
 * pacing made other clients slower there, not faster (deno/QUIRKS.md,
 * deno-immediate-starves-io).
 *
 * For servers that set `httpAllowHalfOpen`, as serveNodeHttp does: otherwise
 * Node ends a connection whose client half-closed under a body still being
 * written.
 */
export class PacedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (
      chunk instanceof Uint8Array &&
      chunk.byteLength > SLICE_BYTES &&
      encoding === undefined &&
      callback === undefined &&
      // Without a head already written, the first write() would send one without Content-Length (chunked).
      this.headersSent &&
      // Node sends no body to HEAD.
      this.req.method !== 'HEAD'
    ) {
      paceBody(this, chunk);
      return this;
    }
    return super.end(chunk as never, encoding as never, callback as never);
  }

  /** The last slice: ends the answer as ServerResponse would. */
  endWhole(slice: Uint8Array): void {
    super.end(slice);
  }
}
