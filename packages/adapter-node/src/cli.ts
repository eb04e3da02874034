#!/usr/bin/env node
import { readStandaloneConfig, startupLines } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { createPostgresStore } from '@plant-store/store-postgres';
import { serve } from './serve.ts';

// The standalone server: `pnpm start` at the repository root, or `plant-store-node`.
async function main(): Promise<void> {
  const config = readStandaloneConfig(process.env);
  const database = config.databaseUrl === undefined ? undefined : await createPostgresStore({ url: config.databaseUrl });
  const running = await serve({
    host: config.host,
    port: config.port,
    store: database ?? createMemoryStore(),
    authenticate: config.authenticate,
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
}

main().catch((error: unknown) => {
  console.error(`plant-store: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
