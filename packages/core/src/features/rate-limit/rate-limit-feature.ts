// Runs anywhere (no runtime API): the `rateLimit` option: creates counted per accepted token.
import type { Feature } from '../../exchange/feature.ts';
import { createRateLimiter, type RateLimitOptions } from './rate-limiter.ts';

/**
 * The `rateLimit` option: each accepted token's creates counted in a fixed
 * window; past its limit, 429 (1404) with `Retry-After` and the RateLimit
 * headers, before the body is read.
 */
export const rateLimitFeature: Feature<'rateLimit'> = {
  option: 'rateLimit',
  document: { kinds: ['rate-limited'] },
  resolve(given, { caller }) {
    if (given === undefined) return undefined;
    const limiter = createRateLimiter(given as RateLimitOptions, caller);
    return { accepted: (token) => limiter.take(token) };
  },
};
