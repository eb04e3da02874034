// Runs on bare Deno, with no Plant Store code, for runtime-tests/quirks.test.ts (deno-https-two-step-stalls):
// a node:https server answers a POST in two steps (the head and body written at once, the answer ended once the
// request body is in), as an answer that comes before the body does; the client then asks again on the same
// connection. Prints, as JSON, the status lines the client got within 2 s.
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
let received = '';
socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
socket.once('secureConnect', () => {
  const body = '{"id":1,"name":"x"}';
  socket.write(`POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  setTimeout(() => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'), 200);
});
setTimeout(() => {
  console.log(JSON.stringify({ statuses: received.match(/HTTP\/1\.1 \d+/g) ?? [] }));
  socket.destroy();
  server.close();
  process.exit(0);
}, 2_000);
