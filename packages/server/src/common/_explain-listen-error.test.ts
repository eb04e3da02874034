// Runs under vitest on Node: real listeners, on real ports of this machine.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { explainListenError } from './_explain-listen-error.ts';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** What Node's own listen gives for `host:port`. */
function listenError(host: string, port: number): Promise<Error & { code?: string }> {
  const server = createServer();
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', resolve);
    server.listen({ host, port }, () => reject(new Error(`listened on ${host}:${port}`)));
  });
}

describe('explainListenError', () => {
  it('says a port in use is, naming PORT and HOST, and how to get past it', async () => {
    const held = createServer();
    servers.push(held);
    await new Promise<void>((resolve) => held.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const port = (held.address() as { port: number }).port;
    const explained = explainListenError(await listenError('127.0.0.1', port), '127.0.0.1', port) as Error;
    expect(explained.message).toBe(
      `PORT: another server already listens on 127.0.0.1:${port} (HOST:PORT); stop it, or set PORT to a free port (PORT=0 picks one)`,
    );
    expect((explained.cause as { code?: string }).code).toBe('EADDRINUSE');
  });

  it('names HOST for a name that resolves to nothing, and for an address of another machine', async () => {
    const unknown = explainListenError(await listenError('plant-store-test.invalid', 0), 'plant-store-test.invalid', 0) as Error;
    expect(unknown.message).toMatch(
      /^HOST: cannot listen on "plant-store-test\.invalid" \((ENOTFOUND|EAI_AGAIN)\): it is not an address of this machine, nor a name resolving to one; set HOST to an address of this machine, 127\.0\.0\.1 .* or 0\.0\.0\.0 from anywhere$/,
    );
    // TEST-NET-1 (RFC 5737): documentation only, never an address of this machine.
    const elsewhere = explainListenError(await listenError('192.0.2.1', 0), '192.0.2.1', 0) as Error;
    expect(elsewhere.message).toMatch(/^HOST: cannot listen on "192\.0\.2\.1" \(EADDRNOTAVAIL\): /);
  });

  it('words the codes Bun and Deno give, and writes an IPv6 address in brackets', () => {
    const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect((explainListenError(coded('EADDRINUSE', 'Failed to start server. Is port 80 in use?'), '::1', 80) as Error).message).toMatch(
      /^PORT: another server already listens on \[::1\]:80 \(HOST:PORT\); /,
    );
    expect((explainListenError(coded('EINVAL'), 'nope.invalid', 8080) as Error).message).toMatch(/^HOST: cannot listen on "nope\.invalid" \(EINVAL\): /);
    expect((explainListenError(coded('EACCES'), '0.0.0.0', 80) as Error).message).toBe(
      'PORT: listening on 0.0.0.0:80 is not permitted to this process (ports below 1024 need privileges); set PORT to 1024 or above',
    );
  });

  it('leaves any other error as it is', () => {
    const other = Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
    expect(explainListenError(other, '127.0.0.1', 8080)).toBe(other);
    expect(explainListenError('text', '127.0.0.1', 8080)).toBe('text');
    expect(explainListenError(null, '127.0.0.1', 8080)).toBe(null);
  });
});
