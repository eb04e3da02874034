// Runs anywhere (no runtime API): the `rateLimit` feature (the default export, which features.ts registers) and its public surface, which the core exports.
export { rateLimitFeature as default } from './rate-limit-feature.ts';
export { createRateLimiter, DEFAULT_RATE_LIMIT_MAX_TOKENS } from './rate-limiter.ts';
export type { RateLimiter, RateLimitOptions } from './rate-limiter.ts';
