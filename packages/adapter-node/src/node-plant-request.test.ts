import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { BodyResult } from '@plant-store/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { NodePlantRequest, rawHeader } from './node-plant-request.ts';

type Seen = { readonly atEnd: BodyResult | undefined; readonly awaited: readonly BodyResult[] };

describe('NodePlantRequest.readBody', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Serves one read of each request's body with `maxBytes`, and resolves with what the reading gave, and when. */
  async function readOnce(maxBytes: number, send: (url: string) => Promise<unknown>): Promise<Seen> {
    let seen!: (value: Seen) => void;
    const result = new Promise<Seen>((resolve) => (seen = resolve));
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const reading = new NodePlantRequest(req, res).readBody(maxBytes);
      let delivered: BodyResult | undefined;
      if ('then' in reading)
        reading.then(
          (body) => (delivered = body),
          () => {},
        );
      // Registered after the reading's own listener, so it runs right after it, in the same event.
      req.once('end', () => {
        const atEnd = delivered;
        // Awaited afterwards, and twice: the same result each time.
        void (async () => {
          const awaited = [await reading, await reading];
          res.end('done');
          seen({ atEnd, awaited });
        })();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}/plants`);
    return result;
  }

  it("hands a streamed body over in the stream's own 'end', with no turn of the microtask queue in between", async () => {
    const body = '{"id":1,"name":"Fern"}';
    const seen = await readOnce(1024, (url) => fetch(url, { method: 'POST', body }));
    expect(seen.atEnd).toStrictEqual({ ok: true, bytes: Buffer.from(body) });
    expect(seen.awaited).toStrictEqual([seen.atEnd, seen.atEnd]);
  });

  it('settles a body past the limit once, as too-large, and the rest of it arriving changes nothing', async () => {
    const seen = await readOnce(4, (url) =>
      fetch(url, { method: 'POST', body: new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array(64)), c.close()) }), duplex: 'half' } as RequestInit),
    );
    expect(seen.atEnd).toStrictEqual({ ok: false, reason: 'too-large' });
    expect(seen.awaited).toStrictEqual([seen.atEnd, seen.atEnd]);
  });

  it('settles as aborted when the client goes away halfway through the body, and the server goes on', async () => {
    const errors: unknown[] = [];
    const onUncaught = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      let settled!: (body: BodyResult) => void;
      const result = new Promise<BodyResult>((resolve) => (settled = resolve));
      server = createServer((req: IncomingMessage, res: ServerResponse) => {
        const reading = new NodePlantRequest(req, res).readBody(1024);
        if ('then' in reading)
          reading.then(
            (body) => {
              settled(body);
              res.end();
            },
            () => {},
          );
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write('POST /plants HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{"id":1,');
      // Gone once the server has the head and part of the body: the reading waits for the rest.
      server.once('request', () => setImmediate(() => socket.destroy()));
      expect(await result).toStrictEqual({ ok: false, reason: 'aborted' });
      const answer = await fetch(`http://127.0.0.1:${port}/plants`, { method: 'POST', body: 'x' }).catch((error: unknown) => error);
      expect(answer).not.toBeInstanceOf(Error);
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});

describe('rawHeader', () => {
  const names = ['authorization', 'content-type', 'content-length', 'x-request-id', 'origin', 'host', 'x-requestid', '_x-trace', '^a', '~z'];
  // A name as a client may spell it: each letter in either case.
  const spelling = (name: string) =>
    fc
      .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
      .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
  const field = fc.constantFrom(...names).chain((name) => fc.tuple(spelling(name), fc.stringMatching(/^[ -~]{0,12}$/)));

  it('finds every field of a name in any case, joined in order with ", ", as a lower-case comparison does', () => {
    fc.assert(
      fc.property(fc.array(field, { maxLength: 8 }), fc.constantFrom(...names), (fields, name) => {
        const req = { rawHeaders: fields.flat() } as unknown as IncomingMessage;
        const values = fields.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
        expect(rawHeader(req, name)).toBe(values.length === 0 ? undefined : values.join(', '));
      }),
    );
  });
});
