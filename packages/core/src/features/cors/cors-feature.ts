// Runs anywhere (no runtime API): the `cors` option: preflights answered, and every other answer given its origin's CORS headers.
import type { Feature } from '../../exchange/feature.ts';
import { createCorsPolicy, type CorsOptions } from './cors-policy.ts';

/** The handler's `cors` option, as `PlantHandlerOptions` has it. */
export interface CorsOption {
  /**
   * Lets pages on the listed origins call the service from a browser:
   * preflights on the routes are answered (200, or 403 with code 1102 for
   * an origin not listed), and every answer to an allowed origin carries
   * `Access-Control-Allow-Origin`. Default: off, and `OPTIONS` gets 405.
   */
  readonly cors?: CorsOptions | undefined;
}

/** The `cors` flag of `DocumentedRoutes`. */
export interface CorsRoutes {
  /** CORS preflights, and their 403 (1102) for an origin not allowed (the handler's `cors` option). */
  readonly cors?: boolean;
}

/**
 * The `cors` option: a preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) on a route the handler serves is answered
 * by the policy, 200 or 403 (1102); every other answer gets the headers of
 * its request's origin.
 */
export const corsFeature: Feature<'cors', CorsOption, CorsRoutes> = {
  option: 'cors',
  document: { kinds: ['origin-not-allowed'] },
  resolve(given, { caller }) {
    if (given === undefined) return undefined;
    const policy = createCorsPolicy(given as CorsOptions, caller);
    return {
      preflight(request, route) {
        if (route === undefined || route.anyMethod === true || request.method !== 'OPTIONS') return undefined;
        const origin = request.header('origin');
        if (origin === undefined || request.header('access-control-request-method') === undefined) return undefined;
        return policy.preflight(origin, route.allow);
      },
      headers: (request) => policy.responseHeaders(request.header('origin')),
    };
  },
};
