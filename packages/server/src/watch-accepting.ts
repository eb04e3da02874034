import { connect, Server, type Socket } from 'node:net';

/** How often the listener is checked. */
const CHECK_EVERY_MS = 1_000;
/** How long a check connection may wait to be accepted before the listener is opened again. */
const STALLED_AFTER_MS = 2_000;

/**
 * Keeps a `node:net` server accepting on runtimes whose accept loop can stop
 * for good: Deno's `node:net` stops accepting, without an error or an event,
 * once accepting failed because every file descriptor was taken, while its
 * listening socket stays open and connections pile up unanswered in the
 * backlog. Node's own loop recovers by itself; there this is not needed.
 *
 * Every second it connects to the server once; when such a connection has
 * not been accepted within two seconds, the listener is closed and opened
 * again on the same address (connections already accepted live on). A check
 * that cannot even connect (no descriptor free in this process either) is
 * tried again at the next tick.
 *
 * @param onRestart Told each time the listener is opened again.
 * @returns A function that stops watching; call it before closing the server.
 */
export function watchAccepting(server: Server, host: string, port: number, onRestart: () => void): () => void {
  let check: { socket: Socket; since: number } | undefined;
  const onConnection = (socket: Socket) => {
    if (check !== undefined && socket.remotePort === check.socket.localPort && socket.remoteAddress === check.socket.localAddress) {
      socket.destroy();
      check.socket.destroy();
      check = undefined;
    }
  };
  server.on('connection', onConnection);
  const tick = () => {
    if (check !== undefined) {
      if (performance.now() - check.since < STALLED_AFTER_MS) return;
      check.socket.destroy();
      check = undefined;
      onRestart();
      // Not http.Server#close, which would also cut idle keep-alive connections.
      Server.prototype.close.call(server);
      server.listen(port, host);
      return;
    }
    const socket = connect(port, host);
    socket.on('error', () => {
      if (check?.socket === socket) check = undefined;
    });
    check = { socket, since: performance.now() };
  };
  const timer = setInterval(tick, CHECK_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('connection', onConnection);
    check?.socket.destroy();
    check = undefined;
  };
}
