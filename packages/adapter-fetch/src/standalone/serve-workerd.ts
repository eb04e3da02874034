import { fileURLToPath } from 'node:url';
import { readStandaloneConfig, startupLines } from '@plant-store/core';
import { Miniflare } from 'miniflare';

/**
 * Serves a Plant Store Worker standalone on workerd through miniflare
 * (`pnpm start:workerd`). The variables are read here and handed to the Worker
 * as bindings; a generated token is made here, so that it is printed at start
 * like on every other runtime. SIGINT/SIGTERM dispose of workerd and exit 0.
 */
export async function serveWorkerd(scriptPath: string, bindings: Record<string, string> = {}): Promise<void> {
  const config = readStandaloneConfig(process.env);
  const miniflare = new Miniflare({
    modules: true,
    scriptPath,
    compatibilityDate: '2026-07-01',
    host: config.host,
    port: config.port,
    bindings: {
      ...bindings,
      PLANT_STORE_TOKENS: config.generatedToken ?? process.env['PLANT_STORE_TOKENS'] ?? '',
      PLANT_STORE_ACCESS_LOG: config.accessLog ? 'on' : 'off',
    },
  });
  const url = await miniflare.ready;
  for (const line of startupLines(config, url.origin)) console.log(line);
  // miniflare's own signal hooks exit with 130/143; ours dispose and exit 0.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void miniflare.dispose().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The built Worker that `start:workerd` serves. */
export const WORKER_SCRIPT = fileURLToPath(new URL('./worker.js', import.meta.url));
