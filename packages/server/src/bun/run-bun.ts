// Runs on Bun: the standalone Bun launcher and each of its worker processes.
import { batchLines } from '../common/access-log.ts';
import { createDrainingFetch } from '../fetch/create-draining-fetch.ts';
import type { BuildOptions } from '../common/build-options.ts';
import { createStandalone } from '../fetch/create-standalone.ts';
import { explainListenError } from '../common/_explain-listen-error.ts';
import { logUnhandledRejections } from '../launcher/log-unhandled-rejections.ts';
import { openServed } from '../launcher/_open-served.ts';
import { pacedBody } from './paced-body.ts';
import { readStandaloneConfig } from '../common/read-standalone-config.ts';
import { writeLogRecords } from '../common/_write-log-records.ts';
import { spawnIpcWorker } from './_spawn-ipc-worker.ts';
import { startupRecords } from '../common/startup-lines.ts';
import { withRequestDeadline } from './with-request-deadline.ts';
import { stopOnStartError } from '../launcher/_stop-on-start-error.ts';
import { superviseWorkers, type ListeningMessage } from '../launcher/_supervise-workers.ts';
import { WORKER_OF } from '../common/_standalone-variables.ts';
import { warnUnknownVariables } from '../launcher/_warn-unknown-variables.ts';
import { keepTlsPairFresh, readTlsPair } from '../launcher/_tls-pair.ts';
import { SHUTDOWN_TIMINGS } from '../common/shutdown-timings.ts';
import type { TlsPair } from '../node-http/serve-node-http.ts';

interface BunServer {
  readonly url: URL;
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
  /** This request's own idle timeout, in seconds, from now: Bun's only cut of an answer its client does not take. */
  timeout(request: Request, seconds: number): void;
}
declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout: number;
    reusePort: boolean;
    tls?: TlsPair;
    fetch: (request: Request, server: BunServer) => Promise<Response>;
  }): BunServer;
};

/** The whole request, as on Node: a body not in by then is answered 408 (1402). */
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Bun's own cut of a request whose bytes stop coming, in seconds (default 10,
 * which cut genuine uploads mid-way: Bun counts it from the head, not from the
 * last byte). Past the request timeout, so that a slow body hears its 408
 * rather than a silent close. Bun also closes idle connections between
 * requests after this long, and one still sending its head after about 10 s
 * whatever this says; both on a 4 s timer wheel, so up to 4 s early
 * (Bun 1.4.5, oven-sh/bun#33610).
 */
const IDLE_TIMEOUT_S = 35;
/** Bun's longest idle timeout, in seconds. */
const MAX_IDLE_TIMEOUT_S = 255;

/**
 * Serves Plant Store standalone on Bun (`pnpm start:bun`, or `runBun()` from
 * `@plant-store/server/bun`): the same settings and stores as on Node, the
 * access log, and on SIGINT/SIGTERM `server.stop()`, which stops accepting and
 * lets requests in flight finish (requests still arriving on kept-alive
 * connections get 503 with `Connection: close`), then closes the store and
 * exits 0. With `PLANT_STORE_WORKERS=N`, N such processes serve the port,
 * each on its own socket (`reusePort`, SO_REUSEPORT: the kernel spreads
 * connections), started with `node:child_process` and supervised as
 * {@link superviseWorkers} describes.
 *
 * @param build What to serve instead of the configured store and tokens (test fixtures).
 */
export async function runBun(build?: BuildOptions): Promise<void> {
  try {
    const supervised = Bun.env[WORKER_OF] !== undefined;
    // Its supervisor has warned already: the workers share its environment.
    if (!supervised) warnUnknownVariables(Object.keys(Bun.env), 'Bun', Bun.env);
    const config = readStandaloneConfig(Bun.env);
    // Before the store opens, and in the supervisor before any worker starts: a pair that cannot serve stops the start at once.
    const tls = config.tls === undefined ? undefined : readTlsPair(config.tls);
    // SIGHUP rereads the pair once serving; until then it must not end the process (the
    // supervisor passes it on to every worker, started or not).
    if (tls !== undefined) process.on('SIGHUP', () => {});
    if (config.workers > 1 && !supervised) {
      // The same entry again, with Bun's own flags.
      return await superviseWorkers(config, spawnIpcWorker(process.execPath, [...process.execArgv, ...process.argv.slice(1)]), { ownSockets: true });
    }
    logUnhandledRejections(config.logFormat);
    const served = await openServed(config, Bun.env, build);
    const accessLog = batchLines((text) => console.log(text));
    const { fetch } = createStandalone(Bun.env, accessLog, () => served.options, config, pacedBody);
    // The write timeout: once an answer is handed to Bun, its connection's idle timer runs from Bun's last
    // write for that long rather than IDLE_TIMEOUT_S, for this request alone (bun/QUIRKS.md, bun-no-write-timeout).
    // Asked of the server the request came through: another one's `timeout` leaves the request alone.
    let server: BunServer;
    // The requests in flight on servers a renewed certificate replaced (bun/QUIRKS.md, bun-reload-keeps-tls), with
    // their server: each closes its connection after its answer, said before the deadline's wrapper hands the answer
    // over, so that, as for any answer that closes, it first waits for an unread body to be dropped.
    const retiring = new Map<Request, BunServer>();
    const closingWhenRetired: typeof fetch = (request, context) => {
      const answer = fetch(request, context);
      if (retiring.size === 0 || !retiring.has(request)) return answer;
      return answer.then((response) => {
        response.headers.set('connection', 'close');
        return response;
      });
    };
    const writeTimeoutS = Math.min(MAX_IDLE_TIMEOUT_S, Math.ceil(config.writeTimeoutMs / 1000));
    const guarded = withRequestDeadline(closingWhenRetired, {
      timeoutMs: REQUEST_TIMEOUT_MS,
      // No request is answered before Bun.serve below has returned the server.
      onAnswered:
        writeTimeoutS === 0 ? undefined : (request) => (retiring.size === 0 ? server : (retiring.get(request) ?? server)).timeout(request, writeTimeoutS),
    });
    // The deadline knows the requests in flight already: the drain asks it rather than counting each request again.
    const draining = createDrainingFetch(guarded, { whenIdle: guarded.whenIdle });
    // A server a renewed certificate replaced answers what still comes to it until it stops.
    const retired = (request: Request, own: BunServer) => {
      retiring.set(request, own);
      let answer: Promise<Response>;
      try {
        answer = draining.fetch(request);
      } catch (error) {
        retiring.delete(request);
        throw error;
      }
      return answer.then(
        (response) => {
          retiring.delete(request);
          return response;
        },
        (error: unknown) => {
          retiring.delete(request);
          throw error;
        },
      );
    };
    const listen = (port: number, pair: TlsPair | undefined) =>
      Bun.serve({
        hostname: config.host,
        port,
        idleTimeout: IDLE_TIMEOUT_S,
        // With several processes, or with TLS, whose renewal opens a second server on the port beside the first.
        reusePort: config.workers > 1 || pair !== undefined,
        ...(pair === undefined ? {} : { tls: pair }),
        fetch: (request, own) => (own === server ? draining.fetch(request) : retired(request, own)),
      });
    try {
      server = listen(config.port, tls?.pair);
    } catch (error) {
      throw explainListenError(error, config.host, config.port);
    }
    const stopping = new Set<Promise<void>>();
    const stopWatchingTls = keepTlsPairFresh(config, tls, {
      // Throws, keeping the server in use, when Bun refuses the pair.
      setTls(pair) {
        const previous = server;
        server = listen(previous.port, pair);
        // New connections go to the new server once the old one stops listening; until then
        // the kernel gives them to either, and the old one closes the connections it answers.
        const stopped = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_TIMINGS.graceMs))
          .then(() => previous.stop())
          // A retired server that cannot stop has nothing more to answer; the process's exit ends it.
          .catch(() => {});
        stopping.add(stopped);
        void stopped.then(() => stopping.delete(stopped));
      },
    });
    const url = server.url.origin;
    const records = [...startupRecords(config, url, served.store), ...(tls?.warnings ?? [])];
    if (supervised) process.send?.({ type: 'plant-store:listening', url, records } satisfies ListeningMessage);
    else writeLogRecords(records, config);
    const stop = draining.stopper(
      (idle) => {
        // No renewal may open a server once stopping began.
        stopWatchingTls();
        // Past the drain's timeout, what is still in flight (a slow upload) is cut, as on Node: Bun's own stop
        // would wait for it, up to the 30 s request deadline.
        return Promise.all([server.stop(!idle), ...stopping]).then(() => served.close());
      },
      () => {
        // The lines of the last answers are gathered for the next turn, which exit would not give them.
        accessLog.flush();
        process.exit(0);
      },
    );
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // A worker whose supervisor is gone (even killed) stops too, rather than serving on unsupervised.
    if (supervised) process.on('disconnect', stop);
  } catch (error) {
    stopOnStartError(error, Bun.env);
  }
}
