import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { staticTokens } from '@plant-store/core';
import { parseResponses, rawExchange } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler } from './create-node-handler.ts';

const BODY = '{"id":1,"name":"n"}';
const head = (token: string, extra = '') =>
  `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${BODY.length}\r\n${extra}\r\n`;

describe('Expect: 100-continue through the Node handler', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function start(handleCheckContinue: boolean): Promise<string> {
    const handler = createNodeHandler({ store: createMemoryStore(), authenticate: staticTokens(['good']), onError: () => {} });
    server = createServer(handler);
    if (handleCheckContinue) server.on('checkContinue', handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('with checkContinue handled, sends 100 only after authentication: a bad token gets its 401 and no 100', async () => {
    const url = await start(true);
    const result = await rawExchange(url, [head('bad')], 500);
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([401]);
    expect(result.received).not.toContain('100 Continue');
  });

  it('with checkContinue handled, a good token gets 100, then its 200 once the body is sent', async () => {
    const url = await start(true);
    const result = await rawExchange(url, [head('good'), { pauseMs: 200 }, BODY], 1_000);
    expect(parseResponses(result.received).map((answer) => `${answer.status} ${answer.body}`)).toEqual(['100 ', '200 {"name":"n"}']);
  });

  it('with checkContinue handled, a declared body over the limit gets 413 and no 100', async () => {
    const url = await start(true);
    const result = await rawExchange(url, [head('good').replace(`Content-Length: ${BODY.length}`, `Content-Length: ${2 << 20}`)], 500);
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([413]);
    expect(result.received).not.toContain('100 Continue');
  });

  it('in a plain server, where Node sends the 100 itself, never sends a second one', async () => {
    const url = await start(false);
    const result = await rawExchange(url, [head('good'), { pauseMs: 200 }, BODY], 1_000);
    expect(parseResponses(result.received).map((answer) => answer.status)).toEqual([100, 200]);
  });
});
