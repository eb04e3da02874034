// Runs under vitest on Node: the standalone Node server's own timeouts against requests whose last bytes come after
// the timeout refused them: a head whose bytes all came while its event loop was held, a body still uploading.
import { connect } from 'node:net';
import { once } from 'node:events';
import { parseResponses, send } from '@plant-store/testing';
import { expect, it } from 'vitest';
import { useTimedServer } from './support/use-timed-server.ts';

const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 400;
const HEADERS = { authorization: 'Bearer t', 'content-type': 'application/json' };

const server = useTimedServer(HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS);

/** Holds this process's event loop, as a stalled or stopped process (SIGSTOP) holds a server's. */
function holdEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

it('a create refused 408 (1402) because its head came after the headers timeout is not stored, though it came whole', async () => {
  const { port } = new URL(server().url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = once(socket, 'close');
  socket.write('POST /plants HTTP/1.1\r\nHost: x\r\n');
  // The first line is read: node:http's headers timeout now runs for this request.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const body = '{"id":1,"name":"late"}';
  // The rest is in the kernel's buffers when the loop is held past the timeout and node:http's 500 ms check, after its
  // poll phase: once it turns again, its timers run before it reads the rest, as after a stall of the whole process.
  setImmediate(() => {
    socket.write(`Authorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    holdEventLoop(HEADERS_TIMEOUT_MS + 1_000);
  });
  await closed;
  const [answer, ...more] = parseResponses(Buffer.concat(received).toString('latin1'));
  expect([answer?.status, JSON.parse(answer!.body).error, more.length]).toEqual([408, 1402, 0]);
  // Not stored: another name for the same id is a first create, not a conflict.
  const again = await send(server().url, { path: '/plants', headers: HEADERS, body: '{"id":1,"name":"sent again"}' });
  expect([again.status, again.body]).toEqual([200, '{"name":"sent again"}']);
});

it('a create refused 408 (1402) at the request timeout is not stored, though the rest of its body comes during the linger', async () => {
  const { port } = new URL(server().url);
  // Half-open, as a client still uploading keeps it: it sends the rest whatever it was answered.
  const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
  await once(socket, 'connect');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => {});
  const closed = once(socket, 'close');
  const body = '{"id":2,"name":"slow upload"}';
  socket.write(
    `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  // The rest once the 408 has come: read by the server's linger, where the handler still waited for it.
  await once(socket, 'data');
  socket.end(body.slice(5));
  await closed;
  const [answer, ...more] = parseResponses(Buffer.concat(received).toString('latin1'));
  expect([answer?.status, JSON.parse(answer!.body).error, more.length]).toEqual([408, 1402, 0]);
  const again = await send(server().url, { path: '/plants', headers: HEADERS, body: '{"id":2,"name":"sent again"}' });
  expect([again.status, again.body]).toEqual([200, '{"name":"sent again"}']);
});
