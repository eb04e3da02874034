// Runs anywhere (no runtime API): the `rateLimit` option: creates counted per accepted token.
import type { Feature } from '../../exchange/feature.ts';
import { createRateLimiter, type RateLimitOptions } from './rate-limiter.ts';

/** The handler's `rateLimit` option, as `PlantHandlerOptions` has it. */
export interface RateLimitOption {
  /**
   * Limits each bearer token to `limit` creates per `windowSeconds`: past
   * it, 429 (code 1404) with `Retry-After`, `RateLimit-Policy` and
   * `RateLimit`. Counted in this process's memory, only for authenticated
   * requests: N processes allow N times the rate. Default: off.
   */
  readonly rateLimit?: RateLimitOptions | undefined;
}

/** The `rateLimit` flag of `DocumentedRoutes`. */
export interface RateLimitRoutes {
  /** The per-token rate limit's 429 (1404) with `Retry-After` and the RateLimit headers (the handler's `rateLimit` option). */
  readonly rateLimit?: boolean;
}

/**
 * The `rateLimit` option: each accepted token's creates counted in a fixed
 * window; past its limit, 429 (1404) with `Retry-After` and the RateLimit
 * headers, before the body is read.
 */
export const rateLimitFeature: Feature<'rateLimit', RateLimitOption, RateLimitRoutes> = {
  option: 'rateLimit',
  document: { kinds: ['rate-limited'] },
  resolve(given, { caller }) {
    if (given === undefined) return undefined;
    const limiter = createRateLimiter(given as RateLimitOptions, caller);
    return { accepted: (token) => limiter.take(token) };
  },
};
