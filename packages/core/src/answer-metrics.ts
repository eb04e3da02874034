// Runs anywhere (no runtime API): `GET {basePath}/metrics`, the handler's metrics to bearers of an accepted token.
import { authRefusalResponse } from './auth-refusal-response.ts';
import { authenticateThen } from './authenticate-then.ts';
import type { PlantResponse } from './http-types.ts';
import type { Outcome, PlantExchange } from './plant-exchange.ts';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus-text.ts';

// Never cached; and a new connection per scrape, so that with several processes on one
// port the scrapes are spread over them rather than kept on one by keep-alive.
const METRICS_HEADERS = Object.freeze({ 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store', connection: 'close' });

/**
 * Answers a GET (or HEAD) of the metrics route: the metrics in the
 * Prometheus text format, behind the same bearer token as a create, so that
 * they are never public unless the operator hands the token out
 * (docs/operations.md, "Keeping the metrics private").
 *
 * @example
 * const outcome = answerMetrics(exchange); // a GET of {basePath}/metrics
 */
export function answerMetrics(exchange: PlantExchange): Outcome {
  return authenticateThen(exchange, metricsIfAccepted);
}

function metricsIfAccepted(exchange: PlantExchange, verdict: unknown): PlantResponse {
  if (verdict !== true) return authRefusalResponse(verdict);
  return { status: 200, headers: METRICS_HEADERS, body: exchange.settings.metrics!.expose() };
}
