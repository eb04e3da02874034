import { batchLines } from './access-log.ts';
import { createDrainingFetch } from './create-draining-fetch.ts';
import { createStandalone, type BuildOptions } from './create-standalone.ts';
import { startupLines } from './startup-lines.ts';

interface BunServer {
  readonly url: URL;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): BunServer;
};
declare const process: { on(signal: string, listener: () => void): void; exit(code: number): never };

/**
 * Serves Plant Store standalone on Bun (`pnpm start:bun`, or `runBun()` from
 * `@plant-store/server/bun`): `HOST`, `PORT`,
 * `PLANT_STORE_TOKENS`, access log, and on SIGINT/SIGTERM `server.stop()`,
 * which stops accepting and lets requests in flight finish (requests still
 * arriving on kept-alive connections get 503 with `Connection: close`), then
 * exit 0.
 */
export function runBun(build?: BuildOptions): void {
  const { config, fetch } = createStandalone(
    Bun.env,
    batchLines((text) => console.log(text)),
    build,
  );
  const draining = createDrainingFetch(fetch);
  const server = Bun.serve({ hostname: config.host, port: config.port, fetch: (request) => draining.fetch(request) });
  for (const line of startupLines(config, server.url.origin)) console.log(line);
  const stop = draining.stopper(
    () => server.stop(),
    () => process.exit(0),
  );
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
