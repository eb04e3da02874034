import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { staticTokens } from '@plant-store/core';
import { send } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createNodeHandler } from './create-node-handler.ts';

describe('createNodeHandler mounted in a host', () => {
  it('hands unmatched requests to next() untouched: body unread, no headers set', async () => {
    const handler = createNodeHandler({ store: createMemoryStore(), authenticate: staticTokens(['t']) });
    const app = express();
    app.use(handler);
    app.post('/echo', express.text({ type: '*/*' }), (req, res) => {
      res.json({ body: req.body, headers: res.getHeaderNames() });
    });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await send(url, { path: '/echo', headers: { 'content-type': 'text/plain' }, body: 'the host reads this' });
    expect(JSON.parse(response.body)).toEqual({ body: 'the host reads this', headers: ['x-powered-by'] });
    server.close();
  });

  it('joins repeated Authorization headers as Fetch does, so two tokens are never one acceptance', async () => {
    const handler = createNodeHandler({ store: createMemoryStore(), authenticate: staticTokens(['good']) });
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await send(url, {
      path: '/plants',
      headers: { authorization: ['Bearer good', 'Bearer bad'], 'content-type': 'application/json' },
      body: '{"id":1,"name":"n"}',
    });
    expect(response.status).toBe(401);
    server.close();
  });

  it('answers a body a host read before it (400, 1000) instead of waiting for it forever, and reads a paused one', async () => {
    const handler = createNodeHandler({ store: createMemoryStore(), authenticate: staticTokens(['t']), onError: () => {} });
    const server = createServer((req, res) => {
      if (req.url === '/plants') {
        // A host middleware that consumed the body, then handed the request on.
        req.resume();
        req.once('end', () => handler(req, res));
        return;
      }
      // One that paused the stream and hands it on as it is.
      req.url = '/plants';
      req.pause();
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
    const read = await send(url, { path: '/plants', headers, body: '{"id":1,"name":"n"}' });
    expect([read.status, JSON.parse(read.body).error]).toEqual([400, 1000]);
    const paused = await send(url, { path: '/paused', headers, body: '{"id":2,"name":"n"}' });
    expect(paused.status).toBe(200);
    server.close();
  });
});
