// Runs on Node, imported by the tests or as a process of its own (`node slow-readers.ts <baseUrl> <count>
// <path>`; Node 24 runs the TypeScript as it is): clients that ask for an answer and never read it. As a
// process of its own, opening them costs the test process, whose client's latency is measured, nothing.
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A raw HTTP/1.1 request, the `i`th client's: what a slow reader asks and never reads the answer of. */
export type SlowRequest = (i: number) => string;

/** A `GET` of `path`. */
export const getOf =
  (path: string): SlowRequest =>
  () =>
    `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

/**
 * Opens `count` connections that each send `request` (a path to `GET`, or
 * the raw request of each) and never read; resolves once all are connected.
 * Adds each one's local port to `ports`, when given, as it connects.
 */
export async function openSlowReaders(baseUrl: string, count: number, request: string | SlowRequest, ports?: Set<number>): Promise<Socket[]> {
  const { hostname, port } = new URL(baseUrl);
  const requestOf = typeof request === 'string' ? getOf(request) : request;
  const sockets: Socket[] = [];
  const connected: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    // Never read: the answer piles up in the kernel's buffers, then in the server.
    socket.pause();
    connected.push(
      new Promise((resolve) =>
        socket.once('connect', () => {
          ports?.add(socket.localPort!);
          socket.write(requestOf(i));
          resolve();
        }),
      ),
    );
    sockets.push(socket);
    // A backlog's worth at a time, so that none is refused for a full accept queue.
    if (i % 100 === 99) await Promise.all(connected.slice(i - 99));
  }
  await Promise.all(connected);
  return sockets;
}

// As a process of its own: says `open` once all are connected, and holds them until the test closes
// stdin (or goes away itself); then every connection is dropped.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [baseUrl, count, path] = process.argv.slice(2);
  const sockets = await openSlowReaders(baseUrl!, Number(count), path!);
  process.stdout.write('open\n');
  process.stdin.resume();
  process.stdin.once('end', () => {
    for (const socket of sockets) socket.destroy();
    process.exit(0);
  });
}
