import { Miniflare } from 'miniflare';
import { readStandaloneConfig } from './read-standalone-config.ts';
import { SHUTDOWN_TIMINGS } from './shutdown-timings.ts';
import { startupLines } from './startup-lines.ts';

/**
 * Serves a Plant Store Worker standalone on workerd through miniflare
 * (`pnpm start:workerd`). The variables are read here and handed to the Worker
 * as bindings; a generated token is made here, so that it is printed at start
 * like on every other runtime. SIGINT/SIGTERM stop workerd and exit 0.
 */
export async function runWorkerd(scriptPath: string, bindings: Record<string, string> = {}): Promise<void> {
  const config = readStandaloneConfig(process.env);
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Set(signals.flatMap((signal) => process.listeners(signal)));
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
  // miniflare's own signal hooks exit with 130/143 at once; ours give requests
  // in flight a moment, then exit 0, and miniflare's exit hook stops workerd.
  // (Its async dispose() is not awaited: it can hang when called early.)
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) if (!before.has(listener)) process.removeListener(signal, listener);
    process.once(signal, () => setTimeout(() => process.exit(0), SHUTDOWN_TIMINGS.graceMs));
  }
  const url = await miniflare.ready;
  for (const line of startupLines(config, url.origin)) console.log(line);
}
