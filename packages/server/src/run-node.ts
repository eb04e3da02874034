import { createMemoryStore } from '@plant-store/store-memory';
import { createPostgresStore } from '@plant-store/store-postgres';
import { readStandaloneConfig, type StandaloneEnv } from './read-standalone-config.ts';
import type { BuildOptions } from './create-standalone.ts';
import { serve } from './serve.ts';
import { startupLines } from './startup-lines.ts';
import { stopOnStartError } from './stop-on-start-error.ts';

/**
 * Runs the standalone server on Node (`pnpm start`, the `plant-store` command):
 * settings from the environment (docs/contract.md, "Standalone runs"), the
 * memory store or PostgreSQL when `PLANT_STORE_DATABASE_URL` is set, and on
 * SIGINT/SIGTERM a graceful stop, then exit 0. A setting that cannot work
 * stops the start with one line and exit 1.
 *
 * @param build What to serve instead of the configured store and tokens (test fixtures).
 */
export async function runNode(build?: BuildOptions): Promise<void> {
  try {
    const env = process.env as StandaloneEnv;
    const config = readStandaloneConfig(env);
    const database = build !== undefined || config.databaseUrl === undefined ? undefined : await createPostgresStore({ url: config.databaseUrl });
    const served = build?.(config, env) ?? { store: database ?? createMemoryStore(), authenticate: config.authenticate };
    const running = await serve({
      ...served,
      host: config.host,
      port: config.port,
      ...(config.accessLog ? {} : { accessLog: false as const }),
    });
    for (const line of startupLines(config, running.url)) console.log(line);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        void running
          .close()
          .then(() => database?.close())
          .then(() => process.exit(0));
      });
    }
  } catch (error) {
    stopOnStartError(error);
  }
}
