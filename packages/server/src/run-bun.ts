import { batchLines } from './access-log.ts';
import { createDrainingFetch } from './create-draining-fetch.ts';
import { createStandalone, type BuildOptions } from './create-standalone.ts';
import { openServed } from './open-served.ts';
import { readStandaloneConfig } from './read-standalone-config.ts';
import { startupLines } from './startup-lines.ts';
import { stopOnStartError } from './stop-on-start-error.ts';

interface BunServer {
  readonly url: URL;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): BunServer;
};

/**
 * Serves Plant Store standalone on Bun (`pnpm start:bun`, or `runBun()` from
 * `@plant-store/server/bun`): the same settings and stores as on Node, the
 * access log, and on SIGINT/SIGTERM `server.stop()`, which stops accepting and
 * lets requests in flight finish (requests still arriving on kept-alive
 * connections get 503 with `Connection: close`), then closes the store and
 * exits 0.
 *
 * @param build What to serve instead of the configured store and tokens (test fixtures).
 */
export async function runBun(build?: BuildOptions): Promise<void> {
  try {
    const config = readStandaloneConfig(Bun.env);
    const served = await openServed(config, Bun.env, build);
    const { fetch } = createStandalone(
      Bun.env,
      batchLines((text) => console.log(text)),
      () => served.options,
      config,
    );
    const draining = createDrainingFetch(fetch);
    const server = Bun.serve({ hostname: config.host, port: config.port, fetch: (request) => draining.fetch(request) });
    console.log(startupLines(config, server.url.origin, served.store).join('\n'));
    const stop = draining.stopper(
      () => server.stop().then(() => served.close()),
      () => process.exit(0),
    );
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (error) {
    stopOnStartError(error);
  }
}
