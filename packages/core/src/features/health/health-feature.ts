// Runs anywhere (no runtime API): the `health` option: `GET {basePath}/healthz` and `/readyz`.
import type { Failure } from '../../domain/failure.ts';
import { JSON_HEADERS } from '../../exchange/error-response.ts';
import type { Feature } from '../../exchange/feature.ts';
import type { PlantResponse } from '../../exchange/http-types.ts';
import { errorRef } from '../../exchange/openapi-document.ts';
import { answerAfter, reportFailure, type Outcome, type PlantExchange, type Route } from '../../exchange/plant-exchange.ts';
import { createReadinessCheck } from './create-readiness-check.ts';

// Probes must see the state of now, never a cached answer.
const NO_STORE = { 'cache-control': 'no-store' };
const ALIVE: PlantResponse = { status: 200, headers: Object.freeze({ ...JSON_HEADERS, ...NO_STORE }), body: '{"status":"ok"}' };
const READY: PlantResponse = { status: 200, headers: ALIVE.headers, body: '{"status":"ready"}' };

/** `GET {basePath}/healthz`: 200 while the process serves, also while it drains, and never refused as overloaded. */
const HEALTHZ: Route = { name: 'healthz', template: '/healthz', allow: 'GET', answer: () => ALIVE, whileDraining: true, pastOverload: true };

const statusBody = (value: string) => ({
  'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { const: value } } } },
});

const HEALTH_PATHS = {
  '/healthz': {
    get: {
      operationId: 'checkLiveness',
      summary: 'Liveness',
      description: 'Answers 200 while the process serves, also while it drains for shutdown. No authentication.',
      security: [],
      responses: { '200': { description: 'The process is alive.', content: statusBody('ok') } },
    },
  },
  '/readyz': {
    get: {
      operationId: 'checkReadiness',
      summary: 'Readiness',
      description:
        'Answers 200 when the store answers; 503 while the server drains for shutdown, or when the store fails or does not answer in time. No authentication.',
      security: [],
      responses: {
        '200': { description: 'The service can take creates.', content: statusBody('ready') },
        '503': errorRef(503),
      },
    },
  },
};

/** The handler's `health` option, as `PlantHandlerOptions` has it. */
export interface HealthOption {
  /**
   * Serves `GET {basePath}/healthz` (200 while the process serves) and
   * `GET {basePath}/readyz` (200 when the store's `ready()` answers, 503 with
   * code 1501 while draining or when it fails or takes longer than
   * `storeTimeoutMs`), without authentication. Default false.
   */
  readonly health?: boolean | undefined;
}

/** The `health` flag of `DocumentedRoutes`. */
export interface HealthRoutes {
  /** `GET /healthz` and `GET /readyz` (the handler's `health` option). */
  readonly health?: boolean;
}

/**
 * The `health` option: liveness at `/healthz` and readiness at `/readyz`
 * (the store's `ready()`, within the store timeout).
 */
export const healthFeature: Feature<'health', HealthOption, HealthRoutes> = {
  option: 'health',
  document: { paths: HEALTH_PATHS },
  resolve(given, { caller, store, createOptions }) {
    if (given !== undefined && typeof given !== 'boolean') throw new TypeError(`${caller}: \`health\` must be a boolean`);
    if (given !== true) return undefined;
    const ready = createReadinessCheck(store, createOptions.timeoutMs);
    const readyz: Route = { name: 'readyz', template: '/readyz', allow: 'GET', answer: (exchange) => answerAfter(exchange, ready(), readiness) };
    return {
      routes: [
        ['/healthz', HEALTHZ],
        ['/readyz', readyz],
      ],
    };
  },
};

function readiness(exchange: PlantExchange, failure: Failure | undefined): Outcome {
  return failure === undefined ? READY : reportFailure(exchange, failure, NO_STORE);
}
