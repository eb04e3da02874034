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
import { refuseTls } from '../common/_refuse-tls.ts';
import { writeLogRecords } from '../common/_write-log-records.ts';
import { spawnIpcWorker } from './_spawn-ipc-worker.ts';
import { startupRecords } from '../common/startup-lines.ts';
import { withRequestDeadline } from './with-request-deadline.ts';
import { stopOnStartError } from '../launcher/_stop-on-start-error.ts';
import { superviseWorkers, type ListeningMessage } from '../launcher/_supervise-workers.ts';
import { WORKER_OF } from '../common/_standalone-variables.ts';
import { warnUnknownVariables } from '../launcher/_warn-unknown-variables.ts';

interface BunServer {
  readonly url: URL;
  stop(closeActiveConnections?: boolean): Promise<void>;
  /** This request's own idle timeout, in seconds, from now: Bun's only cut of an answer its client does not take. */
  timeout(request: Request, seconds: number): void;
}
declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: { hostname: string; port: number; idleTimeout: number; reusePort: boolean; fetch: (request: Request) => Promise<Response> }): BunServer;
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
    refuseTls(config, 'Bun');
    if (config.workers > 1 && !supervised) {
      // The same entry again, with Bun's own flags.
      return await superviseWorkers(config, spawnIpcWorker(process.execPath, [...process.execArgv, ...process.argv.slice(1)]), { ownSockets: true });
    }
    logUnhandledRejections(config.logFormat);
    const served = await openServed(config, Bun.env, build);
    const { fetch } = createStandalone(
      Bun.env,
      batchLines((text) => console.log(text)),
      () => served.options,
      config,
      pacedBody,
    );
    // The write timeout: once an answer is handed to Bun, its connection's idle timer runs from Bun's last
    // write for that long rather than IDLE_TIMEOUT_S, for this request alone (bun/QUIRKS.md, bun-no-write-timeout).
    let server: BunServer;
    const writeTimeoutS = Math.min(MAX_IDLE_TIMEOUT_S, Math.ceil(config.writeTimeoutMs / 1000));
    const guarded = withRequestDeadline(fetch, {
      timeoutMs: REQUEST_TIMEOUT_MS,
      // No request is answered before Bun.serve below has returned the server.
      onAnswered: writeTimeoutS === 0 ? undefined : (request) => server.timeout(request, writeTimeoutS),
    });
    // The deadline knows the requests in flight already: the drain asks it rather than counting each request again.
    const draining = createDrainingFetch(guarded, { whenIdle: guarded.whenIdle });
    // Only with several processes: otherwise another process could open the port beside this one.
    const reusePort = config.workers > 1;
    try {
      server = Bun.serve({ hostname: config.host, port: config.port, idleTimeout: IDLE_TIMEOUT_S, reusePort, fetch: (request) => draining.fetch(request) });
    } catch (error) {
      throw explainListenError(error, config.host, config.port);
    }
    const url = server.url.origin;
    const records = startupRecords(config, url, served.store);
    if (supervised) process.send?.({ type: 'plant-store:listening', url, records } satisfies ListeningMessage);
    else writeLogRecords(records, config);
    const stop = draining.stopper(
      () => server.stop().then(() => served.close()),
      () => process.exit(0),
    );
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // A worker whose supervisor is gone (even killed) stops too, rather than serving on unsupervised.
    if (supervised) process.on('disconnect', stop);
  } catch (error) {
    stopOnStartError(error, Bun.env);
  }
}
