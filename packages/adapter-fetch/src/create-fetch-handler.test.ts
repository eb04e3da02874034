import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { staticTokens } from '@plant-store/core';
import { conformanceOptions, describeHttpConformance } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it } from 'vitest';
import { createFetchHandler, createFetchHandlerWithIds } from './create-fetch-handler.ts';
import { createNodeServerAdapter } from './create-node-server-adapter.ts';

describeHttpConformance({
  name: 'adapter-fetch through @whatwg-node/server on node:http',
  unmatched: 'not-found',
  async start(scenario) {
    const server = createServer(createNodeServerAdapter({ ...conformanceOptions(scenario, createMemoryStore()), onError: () => {} }));
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
  },
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
