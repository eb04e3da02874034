// Runs on bare Bun, with no Plant Store code, for runtime-tests/quirks.test.ts (bun-reload-keeps-tls): serves
// one certificate, reloads the server with another (`server.reload({ tls })`), and prints, as JSON, the name of
// the certificate a new connection is then served with.
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';

interface BareServer {
  readonly port: number;
  reload(options: Record<string, unknown>): void;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: { serve(options: Record<string, unknown>): BareServer };

/** The pair the variables `<prefix>_CERT` and `<prefix>_KEY` name. */
const pair = (prefix: string) => ({
  cert: readFileSync(process.env[`${prefix}_CERT`]!, 'utf8'),
  key: readFileSync(process.env[`${prefix}_KEY`]!, 'utf8'),
});
const fetch = () => new Response('ok');
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: pair('QUIRK_FIRST'), fetch });
server.reload({ tls: pair('QUIRK_SECOND'), fetch });
const served = await new Promise<string>((resolve, reject) => {
  // The name is all that is asked: which certificate is served, not whether it is trusted.
  const socket = connect({ host: '127.0.0.1', port: server.port, servername: 'localhost', rejectUnauthorized: false }, () => {
    resolve(socket.getPeerCertificate().subject.CN);
    socket.destroy();
  });
  socket.on('error', reject);
});
console.log(JSON.stringify({ served }));
await server.stop(true);
process.exit(0);
