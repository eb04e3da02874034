// Runs on bare Deno (and Node, for comparison), with no Plant Store code, for runtime-tests/quirks.test.ts
// (deno-http2-unbounded-memory): a node:http2 server over TLS that answers every stream at once with a short 200,
// as a server answers a request it refuses, and sends away a connection once its client has reset 100 streams
// (GOAWAY, ENHANCE_YOUR_CALM), as the standalone Node server does. Prints `listening on https://127.0.0.1:<port>`;
// stops when killed.
import { readFileSync } from 'node:fs';
import { constants, createSecureServer, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';

const server = createSecureServer({ cert: readFileSync(process.env['QUIRK_CERT']!), key: readFileSync(process.env['QUIRK_KEY']!) }, (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});
server.on('session', (session) => {
  session.on('error', () => {});
  let resets = 0;
  session.on('stream', (stream: ServerHttp2Stream) => {
    stream.once('close', () => {
      if (stream.rstCode !== constants.NGHTTP2_NO_ERROR && ++resets > 100 && !session.destroyed) {
        session.destroy(undefined, constants.NGHTTP2_ENHANCE_YOUR_CALM);
      }
    });
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
console.log(`listening on https://127.0.0.1:${port}`);
