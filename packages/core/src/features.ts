// Runs anywhere (no runtime API): the registry of the handler's optional features, and their public surface.
import cors from './features/cors/index.ts';
import docs from './features/docs/index.ts';
import health from './features/health/index.ts';
import metrics from './features/metrics/index.ts';
import overload from './features/overload/index.ts';
import rateLimit from './features/rate-limit/index.ts';
import tracing from './features/tracing/index.ts';

// What each feature exports for the core's users; index.ts exports it whole.
export * from './features/cors/index.ts';
export * from './features/docs/index.ts';
export * from './features/health/index.ts';
export * from './features/metrics/index.ts';
export * from './features/overload/index.ts';
export * from './features/rate-limit/index.ts';
export * from './features/tracing/index.ts';

/**
 * Every optional feature, each plugged in through its one `Feature`: its
 * option (and that option's type and documentation, which `PlantHandlerOptions`
 * merges from here), its routes and per-request parts, its part of the OpenAPI
 * document (and its flag of `DocumentedRoutes`). Its options are checked and its
 * parts run in this order. A new feature is a folder under `features/` whose
 * `index.ts` exports its `Feature` as default and its public surface, and its lines
 * here. The default export, so that `export *` of this file leaves it out of the
 * core's public exports.
 */
const FEATURES = [health, cors, docs, metrics, tracing, overload, rateLimit] as const;
export default FEATURES;
