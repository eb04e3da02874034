// Runs anywhere (performance.now, which every runtime has): what the metrics keep of one request, from its arrival to its answer.
import type { Created } from '../../domain/create-plant.ts';
import type { Result } from '../../domain/failure.ts';
import type { PlantRequest, PlantResponse } from '../../exchange/http-types.ts';
import type { Route, Watch } from '../../exchange/plant-exchange.ts';
import type { PlantMetrics } from './plant-metrics.ts';

/**
 * One request as the metrics count it: in flight from its arrival, its
 * duration by route, method and status at its answer, and its store call.
 *
 * @example
 * const watch = new MetricsWatch(metrics, '', request, route);
 */
export class MetricsWatch implements Watch {
  declare private readonly metrics: PlantMetrics;
  declare private readonly basePath: string;
  declare private readonly request: PlantRequest;
  declare private readonly route: Route | undefined;
  /** When the request began (`performance.now()`). */
  declare private readonly started: number;
  /** When the store was called, as {@link started}. */
  declare private storeCalled: number;
  /** When the store stored the plant, as {@link started}; 0 until it has. */
  declare private stored: number;

  constructor(metrics: PlantMetrics, basePath: string, request: PlantRequest, route: Route | undefined) {
    this.metrics = metrics;
    this.basePath = basePath;
    this.request = request;
    this.route = route;
    this.started = performance.now();
    this.storeCalled = 0;
    this.stored = 0;
    metrics.requestStarted();
    // Bun's and workerd's servers tell the core, not the metrics, that they drain.
    if (request.draining === true) metrics.setDraining(true);
  }

  /** The metrics start no trace. */
  get traceId(): undefined {
    return undefined;
  }

  answered(response: PlantResponse): void {
    // A stored create (inserted or replayed) is answered in the same turn as its store call ends: once the other
    // watching features are told (a tracer ends its store span) and its plant's JSON is written. That end stands
    // for its answer's time, one clock read fewer a create (each costs 60 to 90 ns on the benchmark's machine).
    // Any other answer reads the clock.
    const at = this.stored !== 0 ? this.stored : performance.now();
    this.metrics.requestAnswered(this.route, this.request.method, response.status, (at - this.started) / 1000, response.error, this.basePath);
  }

  storeStarted(): void {
    this.storeCalled = performance.now();
  }

  storeEnded(created: Result<Created>): void {
    const { metrics } = this;
    const ended = performance.now();
    metrics.storeAnswered((ended - this.storeCalled) / 1000, created.ok || created.error.kind !== 'storage-unavailable');
    if (!created.ok) return;
    metrics.createStored(created.value.outcome);
    this.stored = ended;
  }
}
