import { batchLines } from './access-log.ts';
import { createDrainingFetch, withRequestDeadline } from './create-draining-fetch.ts';
import { createStandalone, type BuildOptions } from './create-standalone.ts';
import { openServed } from './open-served.ts';
import { readStandaloneConfig, type StandaloneEnv } from './read-standalone-config.ts';
import { STANDALONE_VARIABLES } from './standalone-variables.ts';
import { formatLogRecords } from './format-log-records.ts';
import { startupRecords } from './startup-lines.ts';
import { stopOnStartError } from './stop-on-start-error.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { hostname: string; port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): DenoServer;
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
  exit(code: number): never;
};

interface DenoServer {
  shutdown(): Promise<void>;
  readonly finished: Promise<void>;
}

/** How long a failed accept loop waits before listening again. */
const RESTART_DELAY_MS = 250;

/** The only variables read (Node's and workerd's own left out); Deno runs with `--allow-env` for exactly these. */
const VARIABLES = STANDALONE_VARIABLES.filter((variable) => variable.only === undefined).map((variable) => variable.name);

/**
 * Serves Plant Store standalone on Deno (`pnpm start:deno`, or `runDeno()` from
 * `@plant-store/server/deno`): the same settings and stores as on Node, the
 * access log, and a graceful stop on SIGINT/SIGTERM.
 *
 * `server.shutdown()` cuts the bodies of requests still being received, so the
 * stop comes in two steps: first requests in flight finish while new ones get
 * 503 with `Connection: close`, then the server shuts down, the store closes
 * and the process exits 0.
 *
 * @param build What to serve instead of the configured store and tokens (test fixtures).
 * @param extraVariables More variables `build` reads (each needs `--allow-env`).
 */
export async function runDeno(build?: BuildOptions, extraVariables: readonly string[] = []): Promise<void> {
  const read: Record<string, string | undefined> = {};
  const env = read as StandaloneEnv;
  try {
    for (const name of [...VARIABLES, ...extraVariables]) read[name] = Deno.env.get(name);
    const config = readStandaloneConfig(env);
    const served = await openServed(config, env, build);
    const { fetch } = createStandalone(
      env,
      batchLines((text) => console.log(text)),
      () => served.options,
      config,
    );
    const draining = createDrainingFetch(fetch);
    const guarded = withRequestDeadline(draining.fetch);
    let stopping = false;
    let port = config.port;
    // Deno's accept loop ends when accepting fails (EMFILE once every
    // descriptor is taken), rejecting `finished`, which would end the
    // process. It is started again instead, on the same port, once
    // descriptors may have been freed; connections already open live on.
    const start = (first: boolean): DenoServer => {
      const server = Deno.serve(
        {
          hostname: config.host,
          port,
          onListen: ({ hostname, port: bound }) => {
            port = bound;
            if (!first) return;
            const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${bound}`;
            console.log(formatLogRecords(startupRecords(config, url, served.store), config.logFormat));
          },
        },
        (request) => guarded(request),
      );
      server.finished.catch((error: unknown) => {
        if (stopping) return;
        const msg = `plant-store: Deno.serve stopped accepting (${error instanceof Error ? error.message : String(error)}); listening again`;
        console.error(formatLogRecords([{ level: 'error', msg }], config.logFormat));
        setTimeout(() => restart(), RESTART_DELAY_MS);
      });
      return server;
    };
    const restart = () => {
      if (stopping) return;
      try {
        current = start(false);
      } catch (error) {
        const msg = `plant-store: cannot listen again yet (${error instanceof Error ? error.message : String(error)})`;
        console.error(formatLogRecords([{ level: 'error', msg }], config.logFormat));
        setTimeout(restart, RESTART_DELAY_MS);
      }
    };
    let current = start(true);
    const stop = draining.stopper(
      () => {
        stopping = true;
        return current.shutdown().then(() => served.close());
      },
      () => Deno.exit(0),
    );
    Deno.addSignalListener('SIGINT', stop);
    Deno.addSignalListener('SIGTERM', stop);
  } catch (error) {
    stopOnStartError(error, env);
  }
}
