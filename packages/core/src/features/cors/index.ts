// Runs anywhere (no runtime API): the `cors` feature (the default export, which features.ts registers) and its public surface, which the core exports.
export { corsFeature as default } from './cors-feature.ts';
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, DEFAULT_CORS_MAX_AGE_SECONDS } from './cors-policy.ts';
export type { CorsOptions } from './cors-policy.ts';
