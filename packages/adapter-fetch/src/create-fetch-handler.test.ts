// Runs on Node under vitest: the node:http bridge through the oldest and the newest @whatwg-node/server the peer range
// allows, then the handler itself, runtime-neutral.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { staticTokens } from '@plant-store/core';
import { CONFORMANCE_TOKEN, conformanceOptions, describeHttpConformance, parseResponses, rawExchange } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import * as newest from '@whatwg-node/server';
import { describe, expect, it } from 'vitest';
import { createFetchHandler, createFetchHandlerWithIds, type FetchHandlerOptions } from './create-fetch-handler.ts';
import { createNodeServerAdapter } from './create-node-server-adapter.ts';
import { bridgeFetchHandler } from './node-bridge.ts';

const require = createRequire(import.meta.url);
/** The newest and the oldest @whatwg-node/server the peer range allows (package.json), as installed for the tests. */
const BRIDGES = await Promise.all(
  ['@whatwg-node/server', 'whatwg-node-server-oldest'].map(async (specifier) => ({
    version: (require(`${specifier}/package.json`) as { version: string }).version,
    whatwg: (await import(specifier)) as typeof newest,
  })),
);

async function listen(whatwg: typeof newest, options: FetchHandlerOptions, keepAliveTimeout?: number) {
  const server = createServer(bridgeFetchHandler(whatwg, options));
  if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

for (const { version, whatwg } of BRIDGES) {
  describeHttpConformance({
    name: `adapter-fetch through @whatwg-node/server ${version} on node:http`,
    unmatched: 'not-found',
    start: (scenario) => listen(whatwg, { ...conformanceOptions(scenario, createMemoryStore()), onError: () => {} }),
  });
}

describe.each(BRIDGES)('the node:http bridge on @whatwg-node/server $version', ({ whatwg }) => {
  const options = { store: createMemoryStore(), authenticate: staticTokens([CONFORMANCE_TOKEN]) };
  const head = (token: string, length: number) =>
    `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
  const fern = '{"id":2,"name":"Fern"}';
  const refused: [number, string] = [401, '{"error":1101,"message":"authorization: the token was rejected"}'];

  it('keeps a connection serving after answering 401 to a 4 MiB body it never read', async () => {
    const server = await listen(whatwg, options);
    try {
      const unread = `{"id":1,"name":"${'x'.repeat(4 << 20)}"}`;
      const steps = [head('nope', unread.length) + unread, head(CONFORMANCE_TOKEN, fern.length) + fern];
      const result = await rawExchange(server.baseUrl, steps, 10_000, { answers: 2 });
      expect(parseResponses(result.received).map(({ status, body }) => [status, body])).toEqual([refused, [200, '{"name":"Fern"}']]);
    } finally {
      await server.close();
    }
  });

  it('stops dropping an unwanted body past 64 MiB: the connection ends after the 401 and serves nothing more', async () => {
    // 0.13 ends it when the handler cancels the body; 0.11 leaves it unread until the keep-alive timeout
    // (plus Node's keepAliveTimeoutBuffer, 1 s on Node 24) ends it, so that timeout is short here.
    const server = await listen(whatwg, options, 200);
    try {
      const unread = new Uint8Array(72 << 20).fill(0x78);
      const result = await rawExchange(server.baseUrl, [head('nope', unread.byteLength), unread, head(CONFORMANCE_TOKEN, fern.length) + fern], 10_000);
      expect([parseResponses(result.received).map(({ status, body }) => [status, body]), result.closed]).toEqual([[refused], true]);
    } finally {
      await server.close();
    }
  });
});

describe('createNodeServerAdapter', () => {
  it("answers in the installed @whatwg-node/server's own Response, which that bridge writes without a stream", async () => {
    const adapter = createNodeServerAdapter({ store: createMemoryStore(), authenticate: staticTokens(['t']) });
    const answer = await adapter.fetch('http://127.0.0.1/openapi.json');
    expect([answer.status, answer instanceof newest.Response, answer instanceof BRIDGES[1]!.whatwg.Response]).toEqual([200, true, false]);
  });
});

describe("createFetchHandler's second argument: whatever the host passes beside the request", () => {
  const TOKEN = 'host-token';
  const create = (token: string) =>
    new Request('http://127.0.0.1/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"id":7,"name":"Fern"}',
    });
  const handler = createFetchHandler({ store: createMemoryStore(), authenticate: staticTokens([TOKEN]) });

  // Shaped as the hosts' own types are: Bun's Server, Deno's ServeHandlerInfo, a
  // Worker's env (when the handler is its `fetch` itself). None shares a member with
  // FetchContext, which an all-optional FetchContext would refuse (a weak type). The
  // runtimes' real types are checked by the Bun, Deno and Workers snippets.
  type BunServer = { readonly port: number; readonly url: URL; stop(): Promise<void> };
  type DenoInfo = { readonly remoteAddr: { hostname: string; port: number }; readonly completed: Promise<void> };
  type WorkerEnv = { readonly PLANT_TOKEN: string };
  const onBun: (request: Request, server: BunServer) => Promise<Response> = handler;
  const onDeno: (request: Request, info: DenoInfo) => Promise<Response> = handler;
  const onWorker: (request: Request, env: WorkerEnv) => Promise<Response> = handler;

  it("answers as usual, whatever else the host's object holds", async () => {
    const bun = await onBun(create(TOKEN), { port: 8080, url: new URL('http://127.0.0.1:8080/'), stop: async () => {} });
    const deno = await onDeno(create(TOKEN), { remoteAddr: { hostname: '127.0.0.1', port: 50000 }, completed: new Promise(() => {}) });
    const worker = await onWorker(create(TOKEN), { PLANT_TOKEN: TOKEN });
    expect([bun.status, deno.status, worker.status]).toEqual([200, 200, 200]);
  });

  it("hands a Worker's waitUntil the drop of a body it answered without reading", async () => {
    const waited: Promise<unknown>[] = [];
    const context = { waitUntil: (promise: Promise<unknown>) => void waited.push(promise), passThroughOnException() {} };
    const refused = await handler(create('wrong'), context);
    expect(refused.status).toBe(401);
    expect(waited).toHaveLength(1);
    await waited[0];
  });

  it('still refuses, at compile time, a member of the same name and another type', async () => {
    // @ts-expect-error draining is a boolean
    const answer = await handler(create(TOKEN), { draining: 'yes' });
    expect(answer.status).toBe(200);
  });
});

describe('createFetchHandlerWithIds', () => {
  const TOKEN = 'ids-token';
  const told: [Request, string][] = [];
  const options = { store: createMemoryStore(), authenticate: staticTokens([TOKEN]), requestId: true, onError: () => {} };
  const handler = createFetchHandlerWithIds(options, (request, id) => told.push([request, id]));

  it('tells onRequestId the id each answer carries, before the answer is handed over', async () => {
    told.length = 0;
    const given = new Request('http://127.0.0.1/openapi.json', { headers: { 'x-request-id': 'trace-1' } });
    const answer = await handler(given);
    expect(told).toStrictEqual([[given, 'trace-1']]);
    const made = new Request('http://127.0.0.1/nowhere', { headers: { 'x-request-id': 'no good' } });
    const madeAnswer = await handler(made);
    expect([answer.headers.get('x-request-id'), told[1]]).toStrictEqual(['trace-1', [made, madeAnswer.headers.get('x-request-id')]]);
  });

  it("tells the id of the request deadline's 408 too, and nothing without the requestId option", async () => {
    told.length = 0;
    const late = new Request('http://127.0.0.1/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":8,"name":"Fern"}',
    });
    const timedOut = await handler(late, { deadline: { passed: true, watch: (onPass) => onPass?.() } });
    const without = createFetchHandlerWithIds({ ...options, requestId: false }, (request, id) => told.push([request, id]));
    const plain = await without(new Request('http://127.0.0.1/openapi.json', { headers: { 'x-request-id': 'trace-1' } }));
    expect([timedOut.status, timedOut.headers.get('connection'), plain.headers.get('x-request-id')]).toStrictEqual([408, 'close', null]);
    expect(told).toStrictEqual([[late, timedOut.headers.get('x-request-id')]]);
  });
});

describe('createFetchHandler and the docs page', () => {
  it('answers a docs file with its bytes, from one shared copy, and its own headers', async () => {
    const body = `/* ${'é'.repeat(100_000)} */`;
    const handler = createFetchHandler({
      store: createMemoryStore(),
      authenticate: staticTokens(['t']),
      docs: { html: '<!doctype html>', files: { 'app.js': { contentType: 'text/javascript; charset=utf-8', body } } },
    });
    for (let i = 0; i < 2; i++) {
      const answer = await handler(new Request('http://127.0.0.1/docs/app.js'));
      expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([200, 'text/javascript; charset=utf-8', body]);
    }
  });
});
