import { formatLogRecords } from './format-log-records.ts';
import type { BuildOptions } from './create-standalone.ts';
import { openServed } from './open-served.ts';
import { readStandaloneConfig, type StandaloneEnv } from './read-standalone-config.ts';
import { serveStandalone } from './serve-standalone.ts';
import { STANDALONE_VARIABLES } from './standalone-variables.ts';
import { startupRecords } from './startup-lines.ts';
import { stopOnStartError } from './stop-on-start-error.ts';
import { watchAccepting } from './watch-accepting.ts';

declare const Deno: {
  env: { get(name: string): string | undefined };
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
  exit(code: number): never;
};

/** The only variables read (Node's and workerd's own left out); Deno runs with `--allow-env` for exactly these. */
const VARIABLES = STANDALONE_VARIABLES.filter((variable) => variable.only === undefined).map((variable) => variable.name);

/**
 * Serves Plant Store standalone on Deno (`pnpm start:deno`, or `runDeno()` from
 * `@plant-store/server/deno`): the same settings, stores, access log and
 * graceful stop as on Node, through the same {@link serve}.
 *
 * It serves with Deno's `node:http`, not `Deno.serve`: that server has the
 * headers, request and keep-alive timeouts `Deno.serve` lacks, so slow and
 * idle clients are cut as on Node, and requests it cannot read are answered
 * with the Error body, byte for byte as on Node (docs/contract.md, "Known
 * differences between runtimes"). Its accept loop can stop for good once file
 * descriptors ran out; {@link watchAccepting} opens the listener again.
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
    const running = await serveStandalone(config, served);
    console.log(formatLogRecords(startupRecords(config, running.url, served.store), config.logFormat));
    const { port } = new URL(running.url);
    const stopWatching = watchAccepting(running.server, config.host, Number(port), () => {
      const msg = 'plant-store: the server stopped accepting connections (file descriptors ran out?); listening again';
      console.error(formatLogRecords([{ level: 'error', msg }], config.logFormat));
    });
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      stopWatching();
      void running
        .close()
        .then(() => served.close())
        .then(() => Deno.exit(0));
    };
    Deno.addSignalListener('SIGINT', stop);
    Deno.addSignalListener('SIGTERM', stop);
  } catch (error) {
    stopOnStartError(error, env);
  }
}
