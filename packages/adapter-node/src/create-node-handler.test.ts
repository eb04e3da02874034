import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conformanceOptions, describeHttpConformance, type RunningTarget } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createNodeHandler, createNodeHandlerWithIds } from './create-node-handler.ts';

async function listen(server: Server, path = ''): Promise<RunningTarget> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const quiet = { onError: () => {} };

describeHttpConformance({
  name: 'adapter-node mounted in node:http',
  unmatched: 'host',
  start(scenario) {
    const handler = createNodeHandler({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet });
    return listen(
      createServer((req, res) =>
        handler(req, res, () => {
          res.statusCode = 418;
          res.end('host');
        }),
      ),
    );
  },
});

describeHttpConformance({
  name: 'adapter-node mounted in Express under /api',
  unmatched: 'host',
  start(scenario) {
    const app = express();
    app.use('/api', createNodeHandler({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet }));
    app.use((_req, res) => {
      res.status(418).send('host');
    });
    return listen(createServer(app), '/api');
  },
});

describeHttpConformance({
  name: 'adapter-node with basePath /v1 in node:http',
  unmatched: 'not-found',
  start(scenario) {
    return listen(createServer(createNodeHandler({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet, basePath: '/v1' })), '/v1');
  },
});

describe('createNodeHandlerWithIds', () => {
  it('tells onRequestId the id each written answer carries, before the answer finishes, and nothing for a path handed on', async () => {
    const told: string[] = [];
    const atFinish: (string | undefined)[] = [];
    const ids = new WeakMap<ServerResponse, string>();
    const handler = createNodeHandlerWithIds({ store: createMemoryStore(), authenticate: () => true, requestId: true, ...quiet }, (res, id) => {
      told.push(id);
      ids.set(res, id);
    });
    const target = await listen(
      createServer((req, res) => {
        res.once('finish', () => atFinish.push(ids.get(res)));
        handler(req, res, () => res.end('host'));
      }),
    );
    try {
      const given = await fetch(`${target.baseUrl}/openapi.json`, { headers: { 'x-request-id': 'trace-1' } });
      const made = await fetch(`${target.baseUrl}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'x-request-id': 'no good' } });
      const handedOn = await fetch(`${target.baseUrl}/elsewhere`);
      expect([given.headers.get('x-request-id'), await handedOn.text()]).toStrictEqual(['trace-1', 'host']);
      expect(told).toStrictEqual(['trace-1', made.headers.get('x-request-id')]);
      expect(atFinish).toStrictEqual(['trace-1', made.headers.get('x-request-id'), undefined]);
    } finally {
      await target.close();
    }
  });

  it('tells nothing without the requestId option', async () => {
    const told: string[] = [];
    const handler = createNodeHandlerWithIds({ store: createMemoryStore(), authenticate: () => true, ...quiet }, (_res, id) => told.push(id));
    const target = await listen(createServer(handler));
    try {
      const answer = await fetch(`${target.baseUrl}/openapi.json`, { headers: { 'x-request-id': 'trace-1' } });
      expect([answer.status, answer.headers.get('x-request-id'), told]).toStrictEqual([200, null, []]);
    } finally {
      await target.close();
    }
  });
});
