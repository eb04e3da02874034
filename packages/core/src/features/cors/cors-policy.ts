// Runs anywhere (no runtime API): the CORS answers of one handler, decided once from its `cors` option.
import { errorResponse } from '../../exchange/error-response.ts';
import type { PlantResponse } from '../../exchange/http-types.ts';

/** The `cors` option of `createPlantHandler`: which browser origins may call the service. */
export interface CorsOptions {
  /**
   * The origins whose pages may call the service, each `scheme://host[:port]`
   * as a browser sends it in `Origin` (no path, no trailing `/`; scheme and
   * host are compared in lowercase, and a default port, `:443` for https or
   * `:80` for http, is dropped), e.g. `['https://app.example.com']`. `'*'`
   * allows every origin, and is refused together with `credentials`.
   */
  readonly origins: readonly string[] | '*';
  /** How long a browser may reuse a preflight answer, in seconds, 0 to 86400. Default 600 (Chromium keeps at most 7200). */
  readonly maxAgeSeconds?: number;
  /**
   * Whether pages may send cookies or TLS client certificates along
   * (`Access-Control-Allow-Credentials: true`); default false. A bearer token
   * a script sets in `Authorization` needs no credentials.
   */
  readonly credentials?: boolean;
}

/** Default {@link CorsOptions.maxAgeSeconds}: 10 minutes. */
export const DEFAULT_CORS_MAX_AGE_SECONDS = 600;

/**
 * The request headers a preflight may ask for: those the handler reads, and
 * `idempotency-key` (draft-ietf-httpapi-idempotency-key-header), which some
 * clients send with every POST. The handler accepts and ignores it, since a
 * create is idempotent per plant id already (docs/contract.md, "Success and
 * duplicates"); refusing it at the preflight would refuse those clients.
 */
export const CORS_ALLOWED_HEADERS = 'authorization, content-type, idempotency-key, x-request-id';

/** The answer headers scripts may read beyond the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = 'allow, www-authenticate, x-request-id';

/** The CORS decisions of one handler, made once at construction. */
export interface CorsPolicy {
  /**
   * The answer to a preflight (`OPTIONS` with `Origin` and
   * `Access-Control-Request-Method`) on a route that allows `methods`: 200
   * with an empty body for an allowed origin, 403 (1102) otherwise.
   */
  preflight(origin: string, methods: 'GET' | 'POST'): PlantResponse;
  /**
   * The headers every other answer gets for a request with this `Origin`
   * (or none): `Access-Control-Allow-Origin` and `-Expose-Headers` for an
   * allowed origin, `Vary: Origin` wherever the answer depends on it.
   */
  responseHeaders(origin: string | undefined): Readonly<Record<string, string>>;
}

const VARY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });
const ORIGIN_REFUSED = errorResponse('origin-not-allowed', "origin: not allowed by this server's CORS settings", VARY_ORIGIN);

// scheme "://" host [":" port], RFC 6454 §6.2; a host is a name, an IPv4 or a bracketed IPv6 address.
const ORIGIN = /^([a-z][a-z0-9+.-]*):\/\/([a-z0-9._-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;
const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443', ws: '80', wss: '443' };

/**
 * Checks the `cors` option and decides, once, every CORS header the handler
 * sends: nothing per request but a lookup of the `Origin` header.
 *
 * @throws TypeError naming the fault: an origin that is not
 *   `scheme://host[:port]`, an empty list, `'*'` with `credentials`, a
 *   `maxAgeSeconds` out of range.
 * @param caller The function the user called, which the errors name.
 * @example
 * const cors = createCorsPolicy({ origins: ['https://app.example.com'] });
 * cors.responseHeaders('https://app.example.com'); // { 'access-control-allow-origin': 'https://app.example.com', … }
 */
export function createCorsPolicy(options: CorsOptions, caller = 'createPlantHandler'): CorsPolicy {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${caller}: \`cors\` must be an object such as { origins: [...] }`);
  const { origins, credentials = false, maxAgeSeconds = DEFAULT_CORS_MAX_AGE_SECONDS } = options;
  if (typeof credentials !== 'boolean') throw new TypeError(`${caller}: \`cors.credentials\` must be a boolean`);
  if (!Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds < 0 || maxAgeSeconds > 86_400) {
    throw new TypeError(`${caller}: \`cors.maxAgeSeconds\` must be an integer from 0 to 86400`);
  }
  const withCredentials: Record<string, string> = credentials ? { 'access-control-allow-credentials': 'true' } : {};
  const preflightHeaders = (allowOrigin: string, methods: string) =>
    Object.freeze({
      'access-control-allow-origin': allowOrigin,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': CORS_ALLOWED_HEADERS,
      'access-control-max-age': String(maxAgeSeconds),
      ...withCredentials,
      ...(allowOrigin === '*' ? {} : VARY_ORIGIN),
    });
  const actualHeaders = (allowOrigin: string) =>
    Object.freeze({
      'access-control-allow-origin': allowOrigin,
      'access-control-expose-headers': CORS_EXPOSED_HEADERS,
      ...withCredentials,
      ...(allowOrigin === '*' ? {} : VARY_ORIGIN),
    });

  if (origins === '*') {
    // Browsers refuse `*` for requests with credentials: an exact origin would be needed, and that is a list.
    if (credentials) throw new TypeError(`${caller}: \`cors.origins\` "*" cannot be combined with \`cors.credentials\`; list the origins`);
    // The answers do not depend on the origin, so they are the same for everyone and need no Vary.
    const get = { status: 200, headers: preflightHeaders('*', 'GET'), body: '' };
    const post = { status: 200, headers: preflightHeaders('*', 'POST'), body: '' };
    const headers = actualHeaders('*');
    return {
      preflight: (_origin, methods) => (methods === 'GET' ? get : post),
      responseHeaders: () => headers,
    };
  }

  if (!Array.isArray(origins) || origins.length === 0) {
    throw new TypeError(`${caller}: \`cors.origins\` must be "*" or a non-empty list of origins such as "https://app.example.com"`);
  }
  const allowed = new Map<string, { get: PlantResponse; post: PlantResponse; headers: Readonly<Record<string, string>> }>();
  for (const [i, origin] of origins.entries()) {
    const normalised = normaliseOrigin(origin, i, caller);
    allowed.set(normalised, {
      get: { status: 200, headers: preflightHeaders(normalised, 'GET'), body: '' },
      post: { status: 200, headers: preflightHeaders(normalised, 'POST'), body: '' },
      headers: actualHeaders(normalised),
    });
  }
  return {
    preflight(origin, methods) {
      const entry = allowed.get(origin);
      if (entry === undefined) return ORIGIN_REFUSED;
      return methods === 'GET' ? entry.get : entry.post;
    },
    responseHeaders: (origin) => (origin === undefined ? VARY_ORIGIN : (allowed.get(origin)?.headers ?? VARY_ORIGIN)),
  };
}

/** An origin as browsers serialise it: lowercase, without its scheme's default port. */
function normaliseOrigin(origin: unknown, index: number, caller: string): string {
  const match = typeof origin === 'string' ? ORIGIN.exec(origin) : null;
  if (match === null) {
    throw new TypeError(
      `${caller}: \`cors.origins[${index}]\` must be an origin, scheme://host[:port] with no path or trailing "/" (e.g. "https://app.example.com"); got ${JSON.stringify(origin)}`,
    );
  }
  const scheme = match[1]!.toLowerCase();
  const host = match[2]!.toLowerCase();
  const port = match[3];
  if (port !== undefined && Number(port) > 65_535) throw new TypeError(`${caller}: \`cors.origins[${index}]\` has a port above 65535`);
  // Leading zeros are not part of a serialised port.
  const portText = port === undefined ? undefined : String(Number(port));
  return portText === undefined || DEFAULT_PORTS[scheme] === portText ? `${scheme}://${host}` : `${scheme}://${host}:${portText}`;
}
