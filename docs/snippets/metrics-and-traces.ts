import { createPlantMetrics, staticTokens } from '@plant-store/core';
import { loadOpenTelemetryTracer, serve } from '@plant-store/server';
import { createSqliteStore } from '@plant-store/store-sqlite';

// One metrics object: the handler counts requests into it, the store its group commits.
const metrics = createPlantMetrics();
const store = await createSqliteStore({ path: 'plants.db', onGroupCommit: (size) => metrics.observeGroupCommit(size) });
// Undefined unless @opentelemetry/api is installed and an SDK registered a tracer provider first.
const tracer = await loadOpenTelemetryTracer();

const running = await serve({
  store,
  authenticate: staticTokens(['s3cret-token']),
  port: 8080,
  requestId: true,
  logFormat: 'json',
  // GET /metrics, for bearers of an accepted token.
  metrics,
  ...(tracer === undefined ? {} : { tracer }),
});
process.once('SIGTERM', () => void running.close().then(() => store.close()));
