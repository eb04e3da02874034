// Runs anywhere (no runtime API): a handler's options, checked once and turned into what every request reads.
import type { Authenticate } from './authenticate.ts';
import { createCorsPolicy, type CorsPolicy } from './cors-policy.ts';
import type { CreatePlantOptions } from './domain/create-plant.ts';
import { createReadinessCheck, type ReadinessCheck } from './create-readiness-check.ts';
import { createDocsResponses } from './docs-responses.ts';
import { errorResponse, PROTOCOL_ERRORS, type ProtocolErrorKind } from './error-response.ts';
import type { PlantResponse } from './http-types.ts';
import { logError } from './log-error.ts';
import type { DocumentedRoutes } from './openapi-document.ts';
import type { ErrorContext, PlantHandlerOptions } from './plant-handler-options.ts';
import { requestObserver, type Observe } from './request-observation.ts';
import { routeFinder, type FindRoute } from './plant-routes.ts';
import { PlantMetrics } from './plant-metrics.ts';
import { createOverloadGate, type OverloadGate, type OverloadOptions } from './overload-gate.ts';
import type { PlantStore } from './domain/plant-store.ts';
import { createRateLimiter, type RateLimiter } from './rate-limiter.ts';

/** Default {@link PlantHandlerOptions.maxBodyBytes}: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Default {@link PlantHandlerOptions.storeTimeoutMs}: 5 s. */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

/** What the steps of a request read: the options of one handler, checked, with their defaults and what is built from them once. */
export interface ResponderSettings {
  readonly store: PlantStore;
  readonly authenticate: Authenticate;
  readonly maxBodyBytes: number;
  readonly createOptions: CreatePlantOptions;
  readonly onError: (error: unknown, context: ErrorContext) => void;
  readonly cors: CorsPolicy | undefined;
  readonly requestIds: boolean;
  /** The store's readiness check, with the `health` option. */
  readonly ready: ReadinessCheck | undefined;
  readonly findRoute: FindRoute;
  readonly basePath: string;
  /** What the served OpenAPI document declares beside the create. */
  readonly documentedRoutes: DocumentedRoutes;
  /** The 413 (1400), naming the limit. */
  readonly bodyTooLarge: PlantResponse;
  /** The OpenAPI documents served so far, by server URL (at most a few mount points). */
  readonly documents: Map<string, PlantResponse>;
  /** What is counted and served at `/metrics`, with the `metrics` option. */
  readonly metrics: PlantMetrics | undefined;
  /** Begins watching each request, with the `metrics` or `tracer` option: one check on the path of every request. */
  readonly observe: Observe | undefined;
  /** The admission decision, with the `overload` option. */
  readonly overload: OverloadGate | undefined;
  /** The per-token rate limit, with the `rateLimit` option. */
  readonly rateLimiter: RateLimiter | undefined;
}

/**
 * Checks `options` and resolves them for the steps of every request.
 *
 * @param caller The function the user called (`createPlantHandler`, an
 *   adapter's factory), which every option error names.
 * @throws TypeError naming `caller` and the option at fault.
 * @example
 * const settings = responderSettings({ store, authenticate }, 'createPlantHandler');
 */
export function responderSettings(options: PlantHandlerOptions, caller: string): ResponderSettings {
  const { store, authenticate } = options;
  // In the order the options have always been checked, so the same fault is named first.
  const basePath = basePathOption(caller, options.basePath ?? '');
  if (typeof store?.insertIfAbsent !== 'function') throw new TypeError(`${caller}: \`store\` must be a PlantStore`);
  if (typeof authenticate !== 'function') throw new TypeError(`${caller}: \`authenticate\` is required`);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  nonNegativeInteger(caller, 'maxBodyBytes', maxBodyBytes);
  nonNegativeInteger(caller, 'storeTimeoutMs', timeoutMs);
  for (const name of ['requestId', 'health'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') throw new TypeError(`${caller}: \`${name}\` must be a boolean`);
  }
  const cors = options.cors === undefined ? undefined : createCorsPolicy(options.cors, caller);
  const health = options.health === true;
  const docs = options.docs === undefined ? undefined : createDocsResponses(options.docs, caller);
  const protocolErrors = protocolErrorsOption(caller, options.protocolErrors);
  const metrics = metricsOption(caller, options.metrics);
  const tracer = options.tracer;
  if (tracer !== undefined && typeof tracer?.startSpan !== 'function') throw new TypeError(`${caller}: \`tracer\` must be a PlantTracer`);
  const overload = overloadOption(caller, options.overload);
  const rateLimiter = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit, caller);
  return {
    store,
    authenticate,
    maxBodyBytes,
    createOptions: { timeoutMs },
    onError: options.onError ?? logError,
    cors,
    requestIds: options.requestId === true,
    ready: health ? createReadinessCheck(store, timeoutMs) : undefined,
    findRoute: routeFinder(basePath, health, docs, metrics !== undefined),
    basePath,
    documentedRoutes: {
      health,
      docs: docs !== undefined,
      cors: cors !== undefined,
      protocolErrors,
      verifier: authenticate.describes,
      overload: overload !== undefined,
      rateLimit: rateLimiter !== undefined,
      metrics: metrics !== undefined,
    },
    bodyTooLarge: errorResponse('body-too-large', `body: larger than the limit of ${maxBodyBytes} bytes`),
    documents: new Map(),
    metrics,
    observe: requestObserver(metrics, tracer, basePath),
    overload,
    rateLimiter,
  };
}

function metricsOption(caller: string, given: unknown): PlantMetrics | undefined {
  if (given === undefined || given === false) return undefined;
  if (given === true) return new PlantMetrics();
  if (given instanceof PlantMetrics) return given;
  throw new TypeError(`${caller}: \`metrics\` must be a boolean or made by createPlantMetrics`);
}

/** A gate given (recognised by its methods, so that one from another copy of the core is shared too), or one built from options. */
function overloadOption(caller: string, given: OverloadOptions | OverloadGate | undefined): OverloadGate | undefined {
  if (given === undefined) return undefined;
  const gate = given as Partial<OverloadGate>;
  if (typeof gate.enter === 'function' && typeof gate.leave === 'function' && typeof gate.busy === 'function') return given as OverloadGate;
  return createOverloadGate(given as OverloadOptions, caller);
}

function nonNegativeInteger(caller: string, name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${caller}: \`${name}\` must be a non-negative integer`);
}

function protocolErrorsOption(caller: string, given: unknown): readonly ProtocolErrorKind[] {
  if (given === undefined) return [];
  if (!Array.isArray(given) || !given.every((kind) => typeof kind === 'string' && Object.hasOwn(PROTOCOL_ERRORS, kind))) {
    const kinds = Object.keys(PROTOCOL_ERRORS).map((kind) => JSON.stringify(kind));
    throw new TypeError(`${caller}: \`protocolErrors\` must be a list of ${kinds.join(', ')}`);
  }
  return Object.freeze([...new Set(given as ProtocolErrorKind[])]);
}

function basePathOption(caller: string, basePath: string): string {
  if (basePath === '' || basePath === '/') return '';
  if (!basePath.startsWith('/') || basePath.includes('?')) {
    throw new TypeError(`${caller}: \`basePath\` must start with "/" and hold no query`);
  }
  return basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
}
