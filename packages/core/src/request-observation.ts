// Runs anywhere (no runtime API): what the handler's metrics and spans keep of one request, start to answer.
import type { Created } from './domain/create-plant.ts';
import type { Result } from './domain/failure.ts';
import type { PlantRequest, PlantResponse } from './http-types.ts';
import { isTracestate, parseTraceparent } from './parse-traceparent.ts';
import type { PlantMetrics } from './plant-metrics.ts';
import type { Route } from './plant-routes.ts';
import type { PlantSpan, PlantTracer, RemoteParent } from './plant-tracer.ts';
import { methodLabel, ROUTE_TEMPLATES } from './route-template.ts';

/**
 * One request as the watching features (metrics, a tracer) keep it: its own
 * state, held by the exchange as one opaque value and told what happens to
 * the request. Made only when the handler has metrics or a tracer, so that
 * a handler with neither keeps nothing per request.
 */
export interface Observation {
  /** The trace of the request's server span, with a tracer that started one. */
  readonly traceId: string | undefined;
  /** The store is called now. */
  storeStarted(): void;
  /** The store answered, or failed, with `created`. */
  storeEnded(created: Result<Created>): void;
  /** The request is answered with `response`. */
  answered(response: PlantResponse): void;
}

/** Begins observing one request as it arrives, before any step has run. */
export type Observe = (request: PlantRequest, route: Route | undefined, requestId: string | undefined) => Observation;

/**
 * The {@link Observe} of a handler with `metrics`, a `tracer` or both, or
 * undefined with neither: each request then counts in flight, its server span
 * starts (continuing the caller's trace when its `traceparent` is valid), and
 * its answer, store call and outcome are counted and traced.
 *
 * @example
 * const observe = requestObserver(new PlantMetrics(), undefined, '');
 * const observation = observe?.(request, route, requestId);
 */
export function requestObserver(metrics: PlantMetrics | undefined, tracer: PlantTracer | undefined, basePath: string): Observe | undefined {
  if (metrics === undefined && tracer === undefined) return undefined;
  const watchers: Watchers = { metrics, tracer, basePath };
  return (request, route, requestId) => new RequestObservation(watchers, request, route, requestId);
}

/** What watches every request of one handler, made once with it and shared by each request's observation. */
interface Watchers {
  readonly metrics: PlantMetrics | undefined;
  readonly tracer: PlantTracer | undefined;
  readonly basePath: string;
}

/** One request's {@link Observation}: when it began and its spans. */
class RequestObservation implements Observation {
  declare private readonly watchers: Watchers;
  declare private readonly request: PlantRequest;
  declare private readonly route: Route | undefined;
  /** When the request began (`performance.now()`). */
  declare private readonly started: number;
  /** When the store was called, as {@link started}. */
  declare private storeCalled: number;
  /** The request's server span, with a tracer. */
  declare private readonly span: PlantSpan | undefined;
  /** The store call's span, under {@link span}. */
  declare private storeSpan: PlantSpan | undefined;

  constructor(watchers: Watchers, request: PlantRequest, route: Route | undefined, requestId: string | undefined) {
    const { metrics, tracer, basePath } = watchers;
    this.watchers = watchers;
    this.request = request;
    this.route = route;
    this.started = performance.now();
    this.storeCalled = 0;
    this.storeSpan = undefined;
    if (metrics !== undefined) {
      metrics.requestStarted();
      // Bun's and workerd's servers tell the core, not the metrics, that they drain.
      if (request.draining === true) metrics.setDraining(true);
    }
    this.span = tracer === undefined ? undefined : startServerSpan(tracer, basePath, request, route, requestId);
  }

  get traceId(): string | undefined {
    return this.span?.traceId;
  }

  answered(response: PlantResponse): void {
    const { status } = response;
    const { metrics, basePath } = this.watchers;
    metrics?.requestAnswered(this.route, this.request.method, status, (performance.now() - this.started) / 1000, response.error, basePath);
    const span = this.span;
    if (span === undefined) return;
    try {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        span.setAttribute('error.type', String(status));
        span.fail(`answered ${status}`);
      }
      span.end();
    } catch {
      // The answer goes out whatever the tracer does.
    }
  }

  storeStarted(): void {
    this.storeCalled = performance.now();
    const { span } = this;
    const { tracer } = this.watchers;
    if (span === undefined || tracer === undefined) return;
    try {
      this.storeSpan = tracer.startSpan('plant_store insert_if_absent', 'internal', span, { 'db.operation.name': 'insert_if_absent' });
    } catch {
      // As above.
    }
  }

  storeEnded(created: Result<Created>): void {
    const ok = created.ok || created.error.kind !== 'storage-unavailable';
    const { metrics } = this.watchers;
    if (metrics !== undefined) {
      metrics.storeAnswered((performance.now() - this.storeCalled) / 1000, ok);
      if (created.ok) metrics.createStored(created.value.outcome);
    }
    const span = this.storeSpan;
    if (span === undefined) return;
    try {
      span.setAttribute('plant_store.outcome', created.ok ? created.value.outcome : created.error.kind);
      if (!ok) span.fail('the store failed or did not answer in time');
      span.end();
    } catch {
      // As above.
    }
  }
}

/** The request's server span, continuing the caller's trace when its `traceparent` is valid; undefined if the tracer throws. */
function startServerSpan(
  tracer: PlantTracer,
  basePath: string,
  request: PlantRequest,
  route: Route | undefined,
  requestId: string | undefined,
): PlantSpan | undefined {
  const method = methodLabel(request.method);
  const template = route === undefined ? undefined : `${basePath}${ROUTE_TEMPLATES[route.name]}`;
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
  if (requestId !== undefined) attributes['plant_store.request_id'] = requestId;
  try {
    return tracer.startSpan(template === undefined ? method : `${method} ${template}`, 'server', remoteParent(request), attributes);
  } catch {
    // A failing tracer must not cost the request its answer.
    return undefined;
  }
}

/** The caller's span, when the request's `traceparent` is valid; its `tracestate` goes with it only when that is valid too. */
function remoteParent(request: PlantRequest): RemoteParent | undefined {
  const parent = parseTraceparent(request.header('traceparent'));
  if (parent === undefined) return undefined;
  const traceState = request.header('tracestate');
  return traceState === undefined || !isTracestate(traceState) ? parent : { ...parent, traceState };
}
