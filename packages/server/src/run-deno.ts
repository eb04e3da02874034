import { batchLines } from './access-log.ts';
import { createDrainingFetch } from './create-draining-fetch.ts';
import { createStandalone, type BuildOptions } from './create-standalone.ts';
import type { StandaloneEnv } from './read-standalone-config.ts';
import { startupLines } from './startup-lines.ts';

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
const VARIABLES = ['HOST', 'PORT', 'PLANT_STORE_TOKENS', 'PLANT_STORE_ACCESS_LOG'] as const;

/**
 * Serves Plant Store standalone on Deno (`pnpm start:deno`, or `runDeno()` from
 * `@plant-store/server/deno`): `HOST`, `PORT`,
 * `PLANT_STORE_TOKENS`, access log, and a graceful stop on SIGINT/SIGTERM.
 *
 * `server.shutdown()` cuts the bodies of requests still being received, so the
 * stop comes in two steps: first requests in flight finish while new ones get
 * 503 with `Connection: close`, then the server shuts down and exits 0.
 */
export function runDeno(build?: BuildOptions, extraVariables: readonly string[] = []): void {
  const env: Record<string, string | undefined> = {};
  for (const name of [...VARIABLES, ...extraVariables]) env[name] = Deno.env.get(name);
  const { config, fetch } = createStandalone(
    env as StandaloneEnv,
    batchLines((text) => console.log(text)),
    build,
  );
  const draining = createDrainingFetch(fetch);
  const server = Deno.serve(
    {
      hostname: config.host,
      port: config.port,
      onListen: ({ hostname, port }) => {
        for (const line of startupLines(config, `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`)) console.log(line);
      },
    },
    (request) => draining.fetch(request),
  );
  const stop = draining.stopper(
    () => server.shutdown(),
    () => Deno.exit(0),
  );
  Deno.addSignalListener('SIGINT', stop);
  Deno.addSignalListener('SIGTERM', stop);
}
