// Runs on Deno, in each process of a Deno server with PLANT_STORE_WORKERS: the same workaround as
// _watch-accepting.ts (deno/QUIRKS.md, deno-accept-after-emfile).
import { connect, type ListenOptions, type Server, type Socket } from 'node:net';
import { blockedSinceLastTick, reopenListener } from './_watch-accepting.ts';

/** How often this process opens a check connection to the port. */
const CHECK_EVERY_MS = 500;
/** How long the listener may go without accepting anything, checks of every process coming in, before it is opened again. */
const STALLED_AFTER_MS = 15_000;
/** Check connections this process must have opened meanwhile: fewer, and the silence proves nothing. */
const CHECKS_NEEDED = 20;

/**
 * {@link watchAccepting} for a listener that shares its port with other
 * processes (SO_REUSEPORT, `PLANT_STORE_WORKERS` on Deno), where the kernel
 * hands each connection to any one of the listeners: a check connection
 * tells this process nothing about its own listener unless it happens to be
 * the one that takes it.
 *
 * So every process connects to the port twice a second and closes the
 * connection at once (whoever accepts it reads nothing, answers nothing and
 * logs nothing), and each counts what its own listener accepts, checks of
 * any process and clients alike. With N processes checking, a listener that
 * accepts gets about two connections a second; one that took none for 15 s
 * while this process opened at least 20 checks (for an accepting one, a
 * chance of about e^-30) has stopped, and is closed and opened again on the
 * same port, with SO_REUSEPORT (connections already accepted live on).
 *
 * @param onRestart Told each time the listener is opened again.
 * @returns A function that stops watching; call it before closing the server.
 */
export function watchSharedAccepting(server: Server, host: string, port: number, onRestart: () => void): () => void {
  let quietSince = performance.now();
  let checks = 0;
  const wasBlocked = blockedSinceLastTick(CHECK_EVERY_MS);
  const onConnection = () => {
    quietSince = performance.now();
    checks = 0;
  };
  server.on('connection', onConnection);
  let check: Socket | undefined;
  const tick = () => {
    const now = performance.now();
    if (wasBlocked(now)) onConnection();
    if (now - quietSince >= STALLED_AFTER_MS && checks >= CHECKS_NEEDED) {
      onConnection();
      onRestart();
      reopenListener(server, { port, host, reusePort: true } as ListenOptions);
    }
    // One left waiting (a listener whose backlog is full answers no handshake) is given up.
    check?.destroy();
    const socket = connect(port, host);
    socket.on('error', () => {});
    socket.once('connect', () => {
      checks++;
      socket.destroy();
    });
    check = socket;
  };
  const timer = setInterval(tick, CHECK_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('connection', onConnection);
    check?.destroy();
  };
}
