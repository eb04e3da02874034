// Runs in vitest on Node 24: a create whose client half-closes before its body is whole, on each standalone server,
// pinned as docs/contract.md's "Known differences" lists it (the half-close), so that a runtime that changes it is seen.
import { CONFORMANCE_TOKEN, parseResponses, rawExchange } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runtime, useServer } from './runtimes.ts';

/** A create's body, with an id of its own per test. */
const body = (id: number) => `{"id":${id},"name":"Cut short"}`;
const HEAD = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${CONFORMANCE_TOKEN}\r\nContent-Type: application/json\r\n`;
/** Long enough for any runtime's answer at once; far shorter than the 30 s request timeout Deno waits for. */
const WATCH_MS = 4_000;

/** What each server does, as the contract lists it. */
const EXPECTED: Record<string, { readonly answer?: string; readonly closed: boolean }> = {
  'Node 24': { answer: '400 {"error":1005,"message":"not a valid HTTP/1.1 request"}', closed: true },
  workerd: { answer: '400 {"error":1005,"message":"not a valid HTTP/1.1 request"}', closed: true },
  // node:http on Deno 2.9 waits for the request timeout (408 after 30 s): nothing yet, the connection open.
  Deno: { closed: false },
  // Bun 1.4.5 closes the connection with no answer.
  Bun: { closed: true },
};

describe.concurrent.each(Object.keys(EXPECTED))('%s standalone server, a body cut short by the client half-closing', (name) => {
  const server = useServer(runtime(name));

  for (const [framing, id, first] of [
    ['a declared length', 61, `${HEAD}Content-Length: ${body(61).length}\r\n\r\n${body(61).slice(0, 10)}`],
    ['chunked', 62, `${HEAD}Transfer-Encoding: chunked\r\n\r\n${body(62).length.toString(16)}\r\n${body(62).slice(0, 10)}`],
  ] as const) {
    it(`with ${framing}: answered as the contract's known differences say, and nothing stored`, async () => {
      const result = await rawExchange(server().baseUrl, [first, { shutdown: true }], WATCH_MS);
      const answers = parseResponses(result.received).map((answer) => `${answer.status} ${answer.body}`);
      const expected = EXPECTED[name]!;
      expect({ answers, closed: result.closed }).toEqual({ answers: expected.answer === undefined ? [] : [expected.answer], closed: expected.closed });
      // The part that came is no create: the id is still free.
      const whole = `${HEAD}Content-Length: ${body(id).length}\r\nConnection: close\r\n\r\n${body(id)}`;
      const after = parseResponses((await rawExchange(server().baseUrl, [whole], 10_000)).received);
      expect(after.map((answer) => `${answer.status} ${answer.body}`)).toEqual(['200 {"name":"Cut short"}']);
    });
  }
});
