import { batchLines } from './access-log.ts';
import { createDrainingFetch } from './create-draining-fetch.ts';
import { createStandalone, type BuildOptions } from './create-standalone.ts';
import { openServed } from './open-served.ts';
import { readStandaloneConfig, type StandaloneEnv } from './read-standalone-config.ts';
import { startupLines } from './startup-lines.ts';
import { stopOnStartError } from './stop-on-start-error.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { hostname: string; port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): { shutdown(): Promise<void>; finished: Promise<void> };
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
  exit(code: number): never;
};

/** The only variables read; Deno runs with `--allow-env` for exactly these. */
const VARIABLES = ['HOST', 'PORT', 'PLANT_STORE_TOKENS', 'PLANT_STORE_ACCESS_LOG', 'PLANT_STORE_DATABASE_URL'] as const;

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
  try {
    const read: Record<string, string | undefined> = {};
    for (const name of [...VARIABLES, ...extraVariables]) read[name] = Deno.env.get(name);
    const env = read as StandaloneEnv;
    const config = readStandaloneConfig(env);
    const served = await openServed(config, env, build);
    const { fetch } = createStandalone(
      env,
      batchLines((text) => console.log(text)),
      () => served.options,
      config,
    );
    const draining = createDrainingFetch(fetch);
    const server = Deno.serve(
      {
        hostname: config.host,
        port: config.port,
        onListen: ({ hostname, port }) => {
          const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
          console.log(startupLines(config, url, served.store).join('\n'));
        },
      },
      (request) => draining.fetch(request),
    );
    const stop = draining.stopper(
      () => server.shutdown().then(() => served.close()),
      () => Deno.exit(0),
    );
    Deno.addSignalListener('SIGINT', stop);
    Deno.addSignalListener('SIGTERM', stop);
  } catch (error) {
    stopOnStartError(error);
  }
}
