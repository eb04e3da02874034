// Runs on Deno, in the standalone Deno launcher: a workaround of Deno 2.9.6's node:net accept loop
// (denoland/deno#10148; record and deletion set: deno/QUIRKS.md, deno-accept-after-emfile).
import { connect, Server, type ListenOptions, type Socket } from 'node:net';

/** How often the listener is checked. */
const CHECK_EVERY_MS = 1_000;
/** How long a check connection may wait, with nothing accepted meanwhile, before the listener is opened again. */
const STALLED_AFTER_MS = 2_000;
/** A tick this late means the event loop was blocked, and accepted nothing for that reason alone. */
const BLOCKED_AFTER_MS = 1_000;

/**
 * For a check run every `everyMs`: a function telling, at each tick, whether
 * the event loop was blocked since the last one (the tick came more than
 * {@link BLOCKED_AFTER_MS} late), so that a listener that accepted nothing
 * meanwhile is not blamed for it.
 */
export function blockedSinceLastTick(everyMs: number): (now: number) => boolean {
  let lastTick = performance.now();
  return (now) => {
    const blocked = now - lastTick > everyMs + BLOCKED_AFTER_MS;
    lastTick = now;
    return blocked;
  };
}

/** Closes `server`'s listener and opens it again with `options`; connections already accepted live on. */
export function reopenListener(server: Server, options: ListenOptions): void {
  // Not http.Server#close, which would also cut idle keep-alive connections.
  Server.prototype.close.call(server);
  server.listen(options);
}

/**
 * Keeps a `node:net` server accepting on runtimes whose accept loop can stop
 * for good: Deno's `node:net` stops accepting, without an error or an event,
 * once accepting failed because every file descriptor was taken, while its
 * listening socket stays open and connections pile up unanswered in the
 * backlog. Node's own loop recovers by itself; there this is not needed.
 *
 * Every second it opens a check connection to the server; when the listener
 * has accepted nothing at all (neither that connection nor a client's) for
 * two seconds after it was opened, the listener is closed and opened again
 * on the same address (connections already accepted live on). Any accepted
 * connection counts, rather than the check's own: under load Deno may accept
 * the check before the connecting side knows its own port, and a check that
 * was taken would look lost. A check that cannot even connect (no descriptor
 * free in this process either) is tried again at the next tick.
 *
 * @param onRestart Told each time the listener is opened again.
 * @returns A function that stops watching; call it before closing the server.
 */
export function watchAccepting(server: Server, host: string, port: number, onRestart: () => void): () => void {
  let accepted = 0;
  let check: { socket: Socket; since: number; accepted: number } | undefined;
  const wasBlocked = blockedSinceLastTick(CHECK_EVERY_MS);
  const onConnection = () => {
    accepted++;
  };
  server.on('connection', onConnection);
  const tick = () => {
    const now = performance.now();
    const blocked = wasBlocked(now);
    if (check !== undefined) {
      const stalled = check.accepted === accepted && !blocked;
      if (stalled && now - check.since < STALLED_AFTER_MS) return;
      check.socket.destroy();
      check = undefined;
      if (stalled) {
        onRestart();
        reopenListener(server, { port, host });
        return;
      }
    }
    const socket = connect(port, host);
    socket.on('error', () => {
      if (check?.socket === socket) check = undefined;
    });
    check = { socket, since: now, accepted };
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
