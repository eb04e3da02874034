// Runs anywhere (no runtime API): the spans of one request, from its arrival to its answer.
import type { Created } from '../../domain/create-plant.ts';
import type { Result } from '../../domain/failure.ts';
import type { PlantRequest, PlantResponse } from '../../exchange/http-types.ts';
import { methodLabel } from '../../exchange/method-label.ts';
import type { Route, Watch } from '../../exchange/plant-exchange.ts';
import { routePath } from '../../exchange/route-path.ts';
import { isTracestate, parseTraceparent } from './parse-traceparent.ts';
import type { PlantSpan, PlantTracer, RemoteParent } from './plant-tracer.ts';

/**
 * One request as a tracer sees it: its server span from its arrival
 * (continuing the caller's trace when its `traceparent` is valid) to its
 * answer, and the store call's span under it. A tracer that throws costs
 * the request nothing but its spans.
 *
 * @example
 * const watch = new SpanWatch(tracer, '', request, route, requestId);
 */
export class SpanWatch implements Watch {
  declare private readonly tracer: PlantTracer;
  /** The request's server span; undefined if the tracer threw. */
  declare private readonly span: PlantSpan | undefined;
  /** The store call's span, under {@link span}. */
  declare private storeSpan: PlantSpan | undefined;

  constructor(tracer: PlantTracer, basePath: string, request: PlantRequest, route: Route | undefined, requestId: string | undefined) {
    this.tracer = tracer;
    this.span = startServerSpan(tracer, basePath, request, route, requestId);
    this.storeSpan = undefined;
  }

  get traceId(): string | undefined {
    return this.span?.traceId;
  }

  answered(response: PlantResponse): void {
    const { span } = this;
    if (span === undefined) return;
    const { status } = response;
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
    const { span } = this;
    if (span === undefined) return;
    try {
      this.storeSpan = this.tracer.startSpan('plant_store insert_if_absent', 'internal', span, { 'db.operation.name': 'insert_if_absent' });
    } catch {
      // As above.
    }
  }

  storeEnded(created: Result<Created>): void {
    const span = this.storeSpan;
    if (span === undefined) return;
    try {
      span.setAttribute('plant_store.outcome', created.ok ? created.value.outcome : created.error.kind);
      if (!created.ok && created.error.kind === 'storage-unavailable') span.fail('the store failed or did not answer in time');
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
  const template = route === undefined ? undefined : `${basePath}${route.template}`;
  const attributes: Record<string, string | number> = {
    'http.request.method': method,
    // Without the query, which may hold secrets; the token is never an attribute.
    // The path the request is routed by: no query or fragment, no scheme or host of an absolute-form target.
    'url.path': routePath(request.url),
  };
  if (method === '_OTHER') attributes['http.request.method_original'] = request.method;
  if (template !== undefined) attributes['http.route'] = template;
  const userAgent = request.header('user-agent');
  if (userAgent !== undefined) attributes['user_agent.original'] = userAgent;
  if (requestId !== undefined) attributes['plant_store.request_id'] = requestId;
  try {
    // OpenTelemetry's HTTP conventions: `HTTP` for a method outside the known set, rather than `_OTHER`.
    const name = method === '_OTHER' ? 'HTTP' : method;
    return tracer.startSpan(template === undefined ? name : `${name} ${template}`, 'server', remoteParent(request), attributes);
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
