// Runs on bare Deno (node:net and setImmediate, no Plant Store code), for runtime-tests/quirks.test.ts's
// deno-immediate-starves-io canary; only node: modules, so that Node 24 can run it too and show the polling
// Deno's lacks. An echo server and one client on loopback: how many round trips the client makes while a chain
// of setImmediate callbacks (each busy for 0.1 ms) runs for 300 ms, and the same while a setTimeout(0) chain
// does. Prints one JSON line, `{"immediate": n, "timeout": n}`.
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';

const WINDOW_MS = 300;

const server = createServer((socket) => socket.on('data', (data) => socket.write(data)));
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
await once(client, 'connect');

/** Round trips made while `schedule` keeps a chain of busy callbacks going for WINDOW_MS. */
async function roundTripsBeside(schedule: (next: () => void) => void): Promise<number> {
  const end = performance.now() + WINDOW_MS;
  const step = () => {
    const busyUntil = performance.now() + 0.1;
    while (performance.now() < busyUntil);
    if (performance.now() < end) schedule(step);
  };
  schedule(step);
  let trips = 0;
  while (performance.now() < end) {
    client.write('x');
    await once(client, 'data');
    trips++;
  }
  return trips;
}

const immediate = await roundTripsBeside((next) => setImmediate(next));
const timeout = await roundTripsBeside((next) => setTimeout(next, 0));
console.log(JSON.stringify({ immediate, timeout }));
client.destroy();
server.close();
