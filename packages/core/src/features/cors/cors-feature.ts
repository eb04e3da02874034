// Runs anywhere (no runtime API): the `cors` option: preflights answered, and every other answer given its origin's CORS headers.
import type { Feature } from '../../exchange/feature.ts';
import { createCorsPolicy, type CorsOptions } from './cors-policy.ts';

/**
 * The `cors` option: a preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) on a route the handler serves is answered
 * by the policy, 200 or 403 (1102); every other answer gets the headers of
 * its request's origin.
 */
export const corsFeature: Feature<'cors'> = {
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
