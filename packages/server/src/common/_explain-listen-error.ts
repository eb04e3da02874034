// Runs in the Node, Bun, Deno and workerd launchers, when the server cannot listen.

/** Codes a runtime gives when HOST is no address of this machine, or no name resolving to one. */
const HOST_CODES = new Set([
  'ENOTFOUND', // getaddrinfo (Node, Deno): no such name
  'EAI_AGAIN', // getaddrinfo: the name could not be resolved now (no DNS)
  'EAI_NONAME',
  'EAI_FAIL',
  'EADDRNOTAVAIL', // an address of another machine
  'EAFNOSUPPORT', // an IPv6 address where IPv6 is off
  // Bun for a name it cannot resolve, Deno for an address of another machine;
  // PORT is checked before listening, so only HOST is left to be invalid.
  'EINVAL',
]);

/**
 * The error to report when a standalone server cannot listen on `HOST:PORT`:
 * each runtime words these differently (`listen EADDRINUSE: address already
 * in use 127.0.0.1:8080` on Node and Deno, `Failed to start server. Is port
 * 8080 in use?` on Bun, `EINVAL` for an unknown name on Bun and for another
 * machine's address on Deno), and none names the setting or the fix. Errors
 * with a code named here come back as one line that names the variable and
 * what to do; anything else comes back as it is.
 */
export function explainListenError(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  if (code === 'EADDRINUSE') {
    return new Error(`PORT: another server already listens on ${address} (HOST:PORT); stop it, or set PORT to a free port (PORT=0 picks one)`, {
      cause: error,
    });
  }
  if (code === 'EACCES') {
    return new Error(`PORT: listening on ${address} is not permitted to this process (ports below 1024 need privileges); set PORT to 1024 or above`, {
      cause: error,
    });
  }
  if (HOST_CODES.has(code)) {
    return new Error(
      `HOST: cannot listen on ${JSON.stringify(host)} (${code}): it is not an address of this machine, nor a name resolving to one; set HOST to an address of this machine, 127.0.0.1 to accept connections from it alone or 0.0.0.0 from anywhere`,
      { cause: error },
    );
  }
  return error;
}
