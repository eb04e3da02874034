import { staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from './create-fetch-handler.ts';
import type { RequestDeadline } from './request-deadline.ts';

const TOKEN = 'deadline-token';
const BODY = '{"id":7,"name":"Fern"}';

/** A deadline the test passes by hand, as a launcher's checker passes it. */
class HandDeadline implements RequestDeadline {
  passed = false;
  private onPass: (() => void) | undefined;
  watch(onPass: (() => void) | undefined): void {
    this.onPass = onPass;
    if (this.passed) this.pass();
  }
  pass(): void {
    this.passed = true;
    const onPass = this.onPass;
    this.onPass = undefined;
    onPass?.();
  }
}

/** A create with a declared length whose body the test sends when it likes. */
function upload(): { request: Request; send(): void } {
  let body!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (body = controller) });
  const request = new Request('http://127.0.0.1/plants', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': String(BODY.length) },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return {
    request,
    send() {
      body.enqueue(new TextEncoder().encode(BODY));
      body.close();
    },
  };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 10));

/** A create under a hand-passed deadline, handled by a fresh handler over a fresh store, its body not yet sent. */
function startCreate() {
  const store = createMemoryStore();
  const handle = createFetchHandler({ store, authenticate: staticTokens([TOKEN]) });
  const { request, send } = upload();
  const deadline = new HandDeadline();
  return { store, deadline, send, answering: handle(request, { deadline }) };
}

describe('FetchPlantRequest under a request deadline, body of declared length', () => {
  it('answers a body still arriving when the deadline passes with 408 (1402), and stores nothing when it arrives after', async () => {
    const { store, deadline, send, answering } = startCreate();
    await turn();
    deadline.pass();
    const response = await answering;
    expect({ status: response.status, connection: response.headers.get('connection'), body: await response.text() }).toStrictEqual({
      status: 408,
      connection: 'close',
      body: '{"error":1402,"message":"the request was not received in time"}',
    });
    send();
    await turn();
    expect(store.size).toBe(0);
  });

  it('creates a plant whose body is in before the deadline, and the deadline passing after changes nothing', async () => {
    const { store, deadline, send, answering } = startCreate();
    send();
    const response = await answering;
    deadline.pass();
    await turn();
    expect({ status: response.status, body: await response.text(), stored: store.size }).toStrictEqual({ status: 200, body: '{"name":"Fern"}', stored: 1 });
  });
});
