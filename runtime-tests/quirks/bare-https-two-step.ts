// Runs on bare Deno, with no Plant Store code, for runtime-tests/quirks.test.ts (deno-https-two-step-stalls):
// a node:https server answers a POST in two steps (the head and body written at once, the answer ended once the
// request body is in), as an answer that comes before the body does; once the client has that answer, it asks
// again on the same connection. Prints, as JSON, the status lines it got by 2 s after the first one, and exits 1
// if even the first one did not come within 10 s.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:tls';

const server = createServer({ cert: readFileSync(process.env['QUIRK_CERT']!), key: readFileSync(process.env['QUIRK_KEY']!) }, (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, { 'content-length': '2' });
    res.end('ok');
    return;
  }
  res.writeHead(401, { 'content-length': '2' });
  res.write('no');
  req.resume();
  req.once('end', () => res.end());
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false });
const statuses = () => (received.match(/HTTP\/1\.1 \d+/g) ?? []) as string[];
const finish = (code: number) => {
  console.log(JSON.stringify({ statuses: statuses() }));
  socket.destroy();
  server.close();
  process.exit(code);
};
let received = '';
let askedAgain = false;
socket.on('data', (chunk: Buffer) => {
  received += chunk.toString('latin1');
  // The 401's body is in: the answer was written whole, if not ended. The second request follows it, not pipelined.
  if (!askedAgain && /HTTP\/1\.1 401[^]*\r\n\r\nno/.test(received)) {
    askedAgain = true;
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    setTimeout(() => finish(0), 2_000);
  }
});
socket.once('secureConnect', () => {
  const body = '{"id":1,"name":"x"}';
  socket.write(`POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
});
setTimeout(() => finish(1), 10_000);
