// Runs anywhere (plain data and a clock): the per-token rate limit of creates, in this process's memory.
import { errorResponse } from '../../exchange/error-response.ts';
import type { PlantResponse } from '../../exchange/http-types.ts';

/** Default {@link RateLimitOptions.maxTokens}. */
export const DEFAULT_RATE_LIMIT_MAX_TOKENS = 10_000;

/** The per-token rate limit: at most `limit` requests per token in each window of `windowSeconds`. */
export interface RateLimitOptions {
  /** Requests one token may make in one window, 1 or more. */
  readonly limit: number;
  /** The window, in seconds, 1 or more; windows start at multiples of it on the clock. */
  readonly windowSeconds: number;
  /**
   * Tokens counted at once, which bounds the memory: past it, the token
   * counted first in the window is forgotten (and may start over). Default 10 000.
   */
  readonly maxTokens?: number | undefined;
  /** The clock, in ms since the epoch. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** The name of the one policy in the RateLimit headers. */
const POLICY = 'per-token';

/**
 * Fixed windows aligned on the clock, one count per token: a request is
 * refused once its token has made `limit` in the current window. Every
 * count is dropped when a window ends (one `Map.clear`, no sweep, no timer),
 * and at most `maxTokens` are held. It lives in one process's memory: N
 * processes allow N times the rate.
 */
export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #maxTokens: number;
  readonly #now: () => number;
  readonly #policy: string;
  readonly #counts = new Map<string, number>();
  #window = -1;
  // The last refusal, reused while its reset time is the same.
  #refusal: PlantResponse | undefined;
  #refusalResetS = 0;

  /** Use {@link createRateLimiter}, which checks the options. */
  constructor(limit: number, windowSeconds: number, maxTokens: number, now: () => number) {
    this.#limit = limit;
    this.#windowMs = windowSeconds * 1000;
    this.#maxTokens = maxTokens;
    this.#now = now;
    this.#policy = `"${POLICY}";q=${limit};w=${windowSeconds}`;
  }

  /** Tokens counted in the current window (at most `maxTokens`). */
  get size(): number {
    return this.#counts.size;
  }

  /**
   * Counts one request of `token`: undefined when it is within the limit,
   * else the 429 (1404) with `Retry-After`, `RateLimit-Policy` and
   * `RateLimit` (draft-ietf-httpapi-ratelimit-headers); a refused request is not counted.
   */
  take(token: string): PlantResponse | undefined {
    const now = this.#now();
    const window = Math.floor(now / this.#windowMs);
    // A clock stepped back (Date.now can be) by less than a window counts on in the window it had reached, rather
    // than start every token afresh each time it crosses back over that window's edge; stepped back further, it
    // starts afresh, rather than hold every token to one window's quota until the clock has caught up.
    if (window > this.#window || window < this.#window - 1) {
      this.#window = window;
      this.#counts.clear();
    }
    const count = this.#counts.get(token);
    if (count === undefined) {
      if (this.#counts.size >= this.#maxTokens) this.#counts.delete(this.#counts.keys().next().value!);
      this.#counts.set(token, 1);
      return undefined;
    }
    if (count < this.#limit) {
      this.#counts.set(token, count + 1);
      return undefined;
    }
    return this.#refused(Math.max(1, Math.ceil(((this.#window + 1) * this.#windowMs - now) / 1000)));
  }

  #refused(resetS: number): PlantResponse {
    if (this.#refusal === undefined || this.#refusalResetS !== resetS) {
      this.#refusalResetS = resetS;
      this.#refusal = errorResponse('rate-limited', `too many requests for this token; retry in ${resetS} s`, {
        'retry-after': String(resetS),
        'ratelimit-policy': this.#policy,
        ratelimit: `"${POLICY}";r=0;t=${resetS}`,
      });
    }
    return this.#refusal;
  }
}

/**
 * Builds the {@link RateLimiter} of the `rateLimit` option.
 *
 * @param caller The function the user called, which option errors name.
 * @throws TypeError for an option out of range.
 * @example
 * const limiter = createRateLimiter({ limit: 100, windowSeconds: 60 });
 * limiter.take(token); // undefined, or the 429 to answer
 */
export function createRateLimiter(options: RateLimitOptions, caller = 'createRateLimiter'): RateLimiter {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${caller}: \`rateLimit\` must be an object with limit and windowSeconds`);
  const maxTokens = options.maxTokens ?? DEFAULT_RATE_LIMIT_MAX_TOKENS;
  for (const [name, value] of [
    ['limit', options.limit],
    ['windowSeconds', options.windowSeconds],
    ['maxTokens', maxTokens],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${caller}: \`rateLimit.${name}\` must be a positive integer`);
  }
  if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError(`${caller}: \`rateLimit.now\` must be a function`);
  return new RateLimiter(options.limit, options.windowSeconds, maxTokens, options.now ?? Date.now);
}
