import type { BuildOptions } from './create-standalone.ts';
import { openServed } from './open-served.ts';
import { readStandaloneConfig, type StandaloneEnv } from './read-standalone-config.ts';
import { serve } from './serve.ts';
import { startupLines } from './startup-lines.ts';
import { stopOnStartError } from './stop-on-start-error.ts';

/**
 * Runs the standalone server on Node (`pnpm start`, the `plant-store` command):
 * settings from the environment (docs/contract.md, "Standalone runs"), the
 * store `PLANT_STORE_DATABASE_URL` names (docs/contract.md, "Stores"), and on
 * SIGINT/SIGTERM a graceful stop, then exit 0. A setting that cannot work
 * stops the start with one line and exit 1.
 *
 * @param build What to serve instead of the configured store and tokens (test fixtures).
 */
export async function runNode(build?: BuildOptions): Promise<void> {
  try {
    const env = process.env as StandaloneEnv;
    const config = readStandaloneConfig(env);
    const served = await openServed(config, env, build);
    const running = await serve({
      ...served.options,
      host: config.host,
      port: config.port,
      ...(config.accessLog ? {} : { accessLog: false as const }),
    });
    console.log(startupLines(config, running.url, served.store).join('\n'));
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        void running
          .close()
          .then(() => served.close())
          .then(() => process.exit(0));
      });
    }
  } catch (error) {
    stopOnStartError(error);
  }
}
