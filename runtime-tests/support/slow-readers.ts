// Runs on Node, as a process of its own (`node slow-readers.ts <baseUrl> <count> <path>`; Node 24 runs
// the TypeScript as it is): clients that ask for `path` and never read the answer, kept apart from the
// test process so that opening them costs the client whose latency is measured nothing.
import { connect, type Socket } from 'node:net';

const [baseUrl, count, path] = process.argv.slice(2);
const { hostname, port } = new URL(baseUrl!);
const request = `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
const sockets: Socket[] = [];
const connected: Promise<void>[] = [];
for (let i = 0; i < Number(count); i++) {
  const socket = connect({ host: hostname, port: Number(port) });
  socket.on('error', () => {});
  // Never read: the answer piles up in the kernel's buffers, then in the server.
  socket.pause();
  connected.push(new Promise((resolve) => socket.once('connect', () => resolve(void socket.write(request)))));
  sockets.push(socket);
  // A backlog's worth at a time, so that none is refused for a full accept queue.
  if (i % 100 === 99) await Promise.all(connected.slice(i - 99));
}
await Promise.all(connected);
process.stdout.write('open\n');
// Held until the test closes stdin (or goes away itself): then every connection is dropped.
process.stdin.resume();
process.stdin.once('end', () => {
  for (const socket of sockets) socket.destroy();
  process.exit(0);
});
