// Runs under vitest on Node: pacedBody uses only web streams and setImmediate, which Node has as Bun does
// (what Bun.serve does with the stream is runtime-tests' part: conformance and latency/slow-readers-latency).
import { describe, expect, it } from 'vitest';
import { SLICE_BYTES, TURN_BUDGET_BYTES } from '../common/pace-slice.ts';
import { pacedBody } from './paced-body.ts';

function bytesOf(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
}

const nextImmediate = () => new Promise((resolve) => setImmediate(resolve));

describe('pacedBody', () => {
  it('gives a body of up to one slice as its one shared Blob', async () => {
    const bytes = bytesOf(SLICE_BYTES, 1);
    const blob = pacedBody(bytes);
    expect(blob).toBeInstanceOf(Blob);
    expect(pacedBody(bytes)).toBe(blob);
    expect(new Uint8Array(await (blob as Blob).arrayBuffer())).toEqual(bytes);
  });

  it('gives a larger one as slices of the same bytes, uncopied, that add up to it exactly', async () => {
    const bytes = bytesOf(SLICE_BYTES * 3 + 17, 2);
    const chunks: Uint8Array[] = [];
    const reader = (pacedBody(bytes) as ReadableStream<Uint8Array>).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([SLICE_BYTES, SLICE_BYTES, SLICE_BYTES, 17]);
    for (const chunk of chunks) expect(chunk.buffer).toBe(bytes.buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(bytes));
  });

  it('hands out at most the turn budget a turn, every body together, and a cancelled one takes none', async () => {
    const perTurn = TURN_BUDGET_BYTES / SLICE_BYTES;
    const bytes = bytesOf(SLICE_BYTES * 4, 3);
    const readers = Array.from({ length: perTurn + 2 }, () => (pacedBody(bytes) as ReadableStream<Uint8Array>).getReader());
    let delivered = 0;
    const reads = readers.map((reader) => reader.read().then((result) => (result.done ? undefined : delivered++)));
    // The pulls ask for their turn after this immediate was queued; the next one runs once the pump has.
    await nextImmediate();
    await nextImmediate();
    expect(delivered).toBe(perTurn);
    // The two left wait for the next turn; one of them is cancelled meanwhile and gets nothing.
    await readers.at(-1)!.cancel();
    await nextImmediate();
    await Promise.all(reads);
    expect(delivered).toBe(perTurn + 1);
  });
});
