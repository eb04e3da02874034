// Runs anywhere (no runtime API): the handler's optional features, in the order their options are checked and their parts run.
import type { Feature } from './exchange/feature.ts';
import { corsFeature } from './features/cors/cors-feature.ts';
import { docsFeature } from './features/docs/docs-feature.ts';
import { healthFeature } from './features/health/health-feature.ts';
import { metricsFeature } from './features/metrics/metrics-feature.ts';
import { overloadFeature } from './features/overload/overload-feature.ts';
import { rateLimitFeature } from './features/rate-limit/rate-limit-feature.ts';
import { tracingFeature } from './features/tracing/tracing-feature.ts';

/**
 * Every optional feature, each plugged in through its one {@link Feature}:
 * its option, its routes and per-request parts, its part of the OpenAPI
 * document. A new feature is a folder under `features/` and one entry here, with its
 * option's type in `plant-handler-options.ts` and, if it documents anything, its flag in
 * `DocumentedRoutes` (`openapi-document.ts`): the public surface, which stays at the top level.
 */
export const FEATURES = [healthFeature, corsFeature, docsFeature, metricsFeature, tracingFeature, overloadFeature, rateLimitFeature] as const;
