// Runs anywhere (no runtime API): `GET {basePath}/metrics`, the handler's metrics to bearers of an accepted token.
import { authRefusalResponse, TOKEN_REJECTED } from './auth-refusal-response.ts';
import { readBearerCredential } from './authenticate.ts';
import { errorResponse } from './error-response.ts';
import type { PlantResponse } from './http-types.ts';
import { isThenable } from './is-thenable.ts';
import { answerAfter, type Outcome, type PlantExchange } from './plant-exchange.ts';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus-text.ts';

const UNAUTHENTICATED = errorResponse('unauthenticated', 'authorization: expected "Bearer <token>"');
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
 * if (route === METRICS) return answerMetrics(exchange);
 */
export function answerMetrics(exchange: PlantExchange): Outcome {
  const { request } = exchange;
  const credential = readBearerCredential(request.header('authorization'));
  if (credential.kind === 'missing') return UNAUTHENTICATED;
  if (credential.kind === 'malformed') return TOKEN_REJECTED;
  const verdict = exchange.settings.authenticate(credential.token, request);
  return isThenable(verdict) ? answerAfter(exchange, verdict, metricsIfAccepted) : metricsIfAccepted(exchange, verdict);
}

function metricsIfAccepted(exchange: PlantExchange, verdict: unknown): PlantResponse {
  if (verdict !== true) return authRefusalResponse(verdict);
  return { status: 200, headers: METRICS_HEADERS, body: exchange.settings.metrics!.expose() };
}
