// Runs anywhere (no runtime API): what the handler's metrics and spans see of one request, start to answer.
import type { Created } from './domain/create-plant.ts';
import type { Result } from './domain/failure.ts';
import type { PlantRequest, PlantResponse } from './http-types.ts';
import { isTracestate, parseTraceparent } from './parse-traceparent.ts';
import type { PlantMetrics } from './plant-metrics.ts';
import type { Route } from './plant-routes.ts';
import type { PlantSpan, PlantTracer, RemoteParent } from './plant-tracer.ts';
import { methodLabel, ROUTE_TEMPLATES } from './route-template.ts';

/**
 * What observing reads and keeps of one request's exchange: the fields of
 * `PlantExchange` it needs, named here so that the exchange, which calls
 * these functions, is not imported back by them.
 */
export interface ObservedExchange {
  readonly settings: { readonly metrics: PlantMetrics | undefined; readonly tracer: PlantTracer | undefined; readonly basePath: string };
  readonly request: PlantRequest;
  readonly route: Route | undefined;
  readonly requestId: string | undefined;
  started: number;
  storeStarted: number;
  span: PlantSpan | undefined;
  storeSpan: PlantSpan | undefined;
}

/**
 * Begins observing a request, with the `metrics` option or a `tracer`:
 * notes when it began, counts it in flight, and starts its server span,
 * continuing the caller's trace when its `traceparent` is valid.
 *
 * @example
 * if (settings.observed) observeStart(exchange);
 */
export function observeStart(exchange: ObservedExchange): void {
  const { settings, request, route } = exchange;
  exchange.started = performance.now();
  const { metrics, tracer } = settings;
  if (metrics !== undefined) {
    metrics.requestStarted();
    // Bun's and workerd's servers tell the core, not the metrics, that they drain.
    if (request.draining === true) metrics.setDraining(true);
  }
  if (tracer === undefined) return;
  const method = methodLabel(request.method);
  const template = route === undefined ? undefined : `${settings.basePath}${ROUTE_TEMPLATES[route.name]}`;
  const query = request.url.indexOf('?');
  const attributes: Record<string, string | number> = {
    'http.request.method': method,
    // Without the query, which may hold secrets; the token is never an attribute.
    'url.path': query < 0 ? request.url : request.url.slice(0, query),
  };
  if (method === '_OTHER') attributes['http.request.method_original'] = request.method;
  if (template !== undefined) attributes['http.route'] = template;
  const userAgent = request.header('user-agent');
  if (userAgent !== undefined) attributes['user_agent.original'] = userAgent;
  if (exchange.requestId !== undefined) attributes['plant_store.request_id'] = exchange.requestId;
  try {
    exchange.span = tracer.startSpan(template === undefined ? method : `${method} ${template}`, 'server', remoteParent(exchange), attributes);
  } catch {
    // A failing tracer must not cost the request its answer.
  }
}

/**
 * Ends observing a request as it is answered with `response`: its duration
 * by route, method and status, a create's outcome by error code, and the
 * end of its server span with the status (and `error.type` for a 5xx).
 */
export function observeAnswer(exchange: ObservedExchange, response: PlantResponse): void {
  const { settings, request, route, span } = exchange;
  const { status } = response;
  settings.metrics?.requestAnswered(route, request.method, status, (performance.now() - exchange.started) / 1000, response.body, settings.basePath);
  if (span === undefined) return;
  try {
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) {
      span.setAttribute('error.type', String(status));
      span.fail(`answered ${status}`);
    }
    span.end();
  } catch {
    // As above: the answer goes out whatever the tracer does.
  }
}

/** Notes that the store is called now, and starts its span under the request's. */
export function observeStoreStart(exchange: ObservedExchange): void {
  exchange.storeStarted = performance.now();
  const { span } = exchange;
  if (span === undefined) return;
  try {
    exchange.storeSpan = exchange.settings.tracer!.startSpan('plant_store insert_if_absent', 'internal', span, { 'db.operation.name': 'insert_if_absent' });
  } catch {
    // As above.
  }
}

/**
 * Notes what the store answered: its latency (`ok` unless it failed or did
 * not answer in time), a stored or replayed create, and the end of its span.
 */
export function observeStoreEnd(exchange: ObservedExchange, created: Result<Created>): void {
  const { metrics } = exchange.settings;
  const ok = created.ok || created.error.kind !== 'storage-unavailable';
  if (metrics !== undefined) {
    metrics.storeAnswered((performance.now() - exchange.storeStarted) / 1000, ok);
    if (created.ok) metrics.createStored(created.value.outcome);
  }
  const span = exchange.storeSpan;
  if (span === undefined) return;
  try {
    span.setAttribute('plant_store.outcome', created.ok ? created.value.outcome : created.error.kind);
    if (!ok) span.fail('the store failed or did not answer in time');
    span.end();
  } catch {
    // As above.
  }
}

/** The caller's span, when the request's `traceparent` is valid; its `tracestate` goes with it only when that is valid too. */
function remoteParent(exchange: ObservedExchange): RemoteParent | undefined {
  const parent = parseTraceparent(exchange.request.header('traceparent'));
  if (parent === undefined) return undefined;
  const traceState = exchange.request.header('tracestate');
  return traceState === undefined || !isTracestate(traceState) ? parent : { ...parent, traceState };
}
