// Runs anywhere (no runtime API): what one handler counts, and its Prometheus text exposition.
import { MetricHistogram } from './metric-histogram.ts';
import type { Route } from '../../exchange/plant-exchange.ts';
import { escapeHelp, formatSampleValue, labelSet } from './prometheus-text.ts';
import { methodLabel } from '../../exchange/method-label.ts';

/** What the process reports of itself, where its runtime can say (Node, Bun and Deno can; a Worker cannot). */
export interface ProcessSample {
  /** User and system CPU time spent, in seconds. */
  readonly cpuSeconds?: number;
  /** Resident set size, in bytes. */
  readonly residentBytes?: number;
  /** JavaScript heap in use, in bytes. */
  readonly heapUsedBytes?: number;
  /** When the process started, in seconds since the Unix epoch. */
  readonly startTimeSeconds?: number;
}

/** Options of {@link createPlantMetrics}. */
export interface PlantMetricsOptions {
  /**
   * Labels every series gets, e.g. `{ process_pid: '4242' }` to tell
   * processes that serve one port apart. Names must match
   * `[a-zA-Z_][a-zA-Z0-9_]*` and not start with `__`.
   */
  readonly labels?: Readonly<Record<string, string>>;
  /** Read at each scrape for the `process_*` metrics; default: none are written. */
  readonly processSample?: () => ProcessSample;
}

/** How a create ended, as `plant_store_creates_total` counts it. */
export type CreateOutcome = 'inserted' | 'replayed' | 'conflict' | 'refused';

// The OpenTelemetry semantic conventions' advice for http.server.request.duration, in seconds.
const DURATION_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
// A store answers in microseconds (memory) to milliseconds (a synced commit): finer at the low end.
const STORE_BOUNDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BOUNDS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const CONFLICT_CODE = 1300;

/** Request durations of one route, by method, then status. */
type ByMethod = Map<string, Map<number, MetricHistogram>>;

/**
 * What one handler counts, written as Prometheus text by {@link expose}:
 * plain numbers updated in place, so that counting allocates nothing once
 * a series exists. Build one with {@link createPlantMetrics}, hand it to the
 * handler's `metrics` option, and to a store's group-commit observer.
 */
export class PlantMetrics {
  // Route names and series are kept apart from the public methods' names, which are what users call.
  readonly #labels: readonly (readonly [string, string])[];
  readonly #processSample: (() => ProcessSample) | undefined;
  readonly #durations = new Map<string | undefined, ByMethod>();
  readonly #creates = { inserted: 0, replayed: 0, conflict: 0 };
  readonly #refusals = new Map<number, number>();
  readonly #store = { ok: new MetricHistogram(STORE_BOUNDS), error: new MetricHistogram(STORE_BOUNDS) };
  readonly #batches = new MetricHistogram(BATCH_BOUNDS);
  #batchesSeen = false;
  #inFlight = 0;
  #draining = 0;
  #basePath: string | undefined;
  // The series the last answer was counted in, and what found it (the method as the request had it): plain fields,
  // so that answers alternating between series allocate nothing either.
  #lastHistogram: MetricHistogram | undefined = undefined;
  #lastTemplate: string | undefined = undefined;
  #lastMethod = '';
  #lastStatus = 0;

  /** Use {@link createPlantMetrics}, which checks the options. */
  constructor(options: PlantMetricsOptions = {}) {
    this.#labels = Object.entries(options.labels ?? {});
    this.#processSample = options.processSample;
  }

  /**
   * Counts one commit of a store that commits creates in groups (SQLite,
   * PostgreSQL): how many creates it held. Give it to the store's
   * `onGroupCommit` option.
   */
  observeGroupCommit(size: number): void {
    this.#batchesSeen = true;
    this.#batches.observe(size);
  }

  /** Says whether the process is draining for a stop (`plant_store_draining` 1) or serving (0). */
  setDraining(draining: boolean): void {
    this.#draining = draining ? 1 : 0;
  }

  /**
   * The metrics in the Prometheus text exposition format (version 0.0.4),
   * as `GET {basePath}/metrics` serves them.
   */
  expose(): string {
    const base = this.#labels;
    let text = '';
    text += header('http_server_request_duration_seconds', 'histogram', 'Duration of HTTP server requests, from the request to its answer.');
    for (const [route, byMethod] of this.#durations) {
      for (const [method, byStatus] of byMethod) {
        for (const [status, histogram] of byStatus) {
          const labels: (readonly [string, string])[] = [...base];
          if (route !== undefined) labels.push(['http_route', `${this.#basePath ?? ''}${route}`]);
          labels.push(['http_request_method', method], ['http_response_status_code', String(status)]);
          text += histogram.lines('http_server_request_duration_seconds', labels);
        }
      }
    }
    text += header('http_server_active_requests', 'gauge', 'Number of HTTP server requests in flight.');
    text += `http_server_active_requests${labelSet(base)} ${this.#inFlight}\n`;
    text += header('plant_store_creates_total', 'counter', 'Creates answered, by outcome; refusals and conflicts by their error code.');
    const creates = this.#creates;
    text += `plant_store_creates_total${labelSet([...base, ['outcome', 'inserted']])} ${creates.inserted}\n`;
    text += `plant_store_creates_total${labelSet([...base, ['outcome', 'replayed']])} ${creates.replayed}\n`;
    text += `plant_store_creates_total${labelSet([...base, ['outcome', 'conflict'], ['error_code', String(CONFLICT_CODE)]])} ${creates.conflict}\n`;
    for (const [code, count] of [...this.#refusals].sort(([a], [b]) => a - b)) {
      text += `plant_store_creates_total${labelSet([...base, ['outcome', 'refused'], ['error_code', String(code)]])} ${count}\n`;
    }
    text += header('plant_store_store_duration_seconds', 'histogram', 'Time the store took to insert a plant, by whether it answered or failed.');
    text += this.#store.ok.lines('plant_store_store_duration_seconds', [...base, ['operation', 'insert_if_absent'], ['outcome', 'ok']]);
    text += this.#store.error.lines('plant_store_store_duration_seconds', [...base, ['operation', 'insert_if_absent'], ['outcome', 'error']]);
    if (this.#batchesSeen) {
      text += header('plant_store_group_commit_size', 'histogram', 'Creates committed together in one transaction of the store.');
      text += this.#batches.lines('plant_store_group_commit_size', base);
    }
    text += header('plant_store_draining', 'gauge', '1 while the process drains for a stop, else 0.');
    text += `plant_store_draining${labelSet(base)} ${this.#draining}\n`;
    return text + this.#processLines();
  }

  /** @internal The handler saw a request begin. */
  requestStarted(): void {
    this.#inFlight++;
  }

  /**
   * @internal The handler answered a request on `route` (undefined when none
   * matched) after `seconds`; a create's refusal is counted by its Error
   * code (`PlantResponse.error`; 0 when it has none).
   */
  requestAnswered(route: Route | undefined, method: string, status: number, seconds: number, error: number | undefined, basePath: string): void {
    this.#inFlight--;
    this.#basePath ??= basePath;
    const template = route?.template;
    this.#durationSeries(template, method, status).observe(seconds);
    if (route?.name === 'plants' && method === 'POST' && status !== 200) {
      const code = error ?? 0;
      if (code === CONFLICT_CODE) this.#creates.conflict++;
      else this.#refusals.set(code, (this.#refusals.get(code) ?? 0) + 1);
    }
  }

  /** @internal A create was stored now, or found stored alike (a replay). */
  createStored(outcome: 'created' | 'replayed'): void {
    if (outcome === 'created') this.#creates.inserted++;
    else this.#creates.replayed++;
  }

  /** @internal The store answered (`ok`) or failed, after `seconds`. */
  storeAnswered(seconds: number, ok: boolean): void {
    (ok ? this.#store.ok : this.#store.error).observe(seconds);
  }

  /** The duration series of an answer, found by route, method and status; kept for the next answer, which is most often in it too. */
  #durationSeries(template: string | undefined, method: string, status: number): MetricHistogram {
    const last = this.#lastHistogram;
    if (last !== undefined && this.#lastStatus === status && this.#lastMethod === method && this.#lastTemplate === template) return last;
    let byMethod = this.#durations.get(template);
    if (byMethod === undefined) this.#durations.set(template, (byMethod = new Map()));
    const label = methodLabel(method);
    let byStatus = byMethod.get(label);
    if (byStatus === undefined) byMethod.set(label, (byStatus = new Map()));
    let histogram = byStatus.get(status);
    if (histogram === undefined) byStatus.set(status, (histogram = new MetricHistogram(DURATION_BOUNDS)));
    this.#lastHistogram = histogram;
    this.#lastTemplate = template;
    this.#lastMethod = method;
    this.#lastStatus = status;
    return histogram;
  }

  #processLines(): string {
    const sample = this.#processSample?.();
    if (sample === undefined) return '';
    const base = labelSet(this.#labels);
    let text = '';
    const gauge = (name: string, type: 'gauge' | 'counter', help: string, value: number | undefined) => {
      if (value === undefined || !Number.isFinite(value)) return;
      text += `${header(name, type, help)}${name}${base} ${formatSampleValue(value)}\n`;
    };
    gauge('process_cpu_seconds_total', 'counter', 'Total user and system CPU time spent in seconds.', sample.cpuSeconds);
    gauge('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', sample.residentBytes);
    gauge('process_heap_used_bytes', 'gauge', 'JavaScript heap in use in bytes.', sample.heapUsedBytes);
    gauge('process_start_time_seconds', 'gauge', 'Start time of the process since the Unix epoch in seconds.', sample.startTimeSeconds);
    return text;
  }
}

/**
 * Builds the metrics of one handler: pass the result as the handler's
 * `metrics` option (or `metrics: true` to have one built) and it serves them
 * at `GET {basePath}/metrics`, to bearers of an accepted token.
 *
 * @throws TypeError for a label name Prometheus would refuse.
 * @example
 * const metrics = createPlantMetrics();
 * const store = await createSqliteStore({ path: 'plants.db', onGroupCommit: (size) => metrics.observeGroupCommit(size) });
 * const handler = createPlantHandler({ store, authenticate, metrics });
 */
export function createPlantMetrics(options: PlantMetricsOptions = {}): PlantMetrics {
  for (const name of Object.keys(options.labels ?? {})) {
    if (!LABEL_NAME.test(name) || name.startsWith('__'))
      throw new TypeError(`createPlantMetrics: label name ${JSON.stringify(name)} is not a Prometheus label name`);
  }
  if (options.processSample !== undefined && typeof options.processSample !== 'function') {
    throw new TypeError('createPlantMetrics: `processSample` must be a function');
  }
  return new PlantMetrics(options);
}

function header(name: string, type: string, help: string): string {
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}\n`;
}
