// Runs anywhere with WebCrypto and WHATWG fetch (Node 20+, Bun, Deno, workerd): the JWT verifier.
import type { Authenticate, AuthRefusal, AuthVerdict } from '@plant-store/core';
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { createJwksCache, type JwksCache, type KeyLookup } from './create-jwks-cache.ts';
import { createVerifiedTokenCache, ENTRY_OVERHEAD_BYTES, type VerifiedTokenCache } from './create-verified-token-cache.ts';
import { isCanonicalJws } from './is-canonical-jws.ts';
import { isJwtAlgorithm, JWT_ALGORITHMS, type JwtAlgorithm } from './jwt-algorithms.ts';
import { KeysUnavailable } from './keys-unavailable.ts';
import { readScopes } from './read-scopes.ts';

/** A public JSON Web Key (RFC 7517), as an issuer publishes it: `kty`, `kid`, `n`/`e` or `crv`/`x`/`y`. */
export type PublicJwk = { readonly kty: string; readonly kid?: string } & Readonly<Record<string, unknown>>;

/** Options of {@link jwtAuthenticate}. */
export interface JwtAuthenticateOptions {
  /** The `iss` every token must carry, exactly: the identity provider's issuer URL. */
  readonly issuer: string;
  /** The `aud` a token must name (one of them, for a list): this API's identifier at the provider. */
  readonly audience: string | readonly string[];
  /** Where the issuer publishes its keys (its `jwks_uri`). Give this or `keys`. */
  readonly jwksUrl?: string | URL | undefined;
  /** The issuer's public keys, when they are not fetched. Give this or `jwksUrl`. */
  readonly keys?: readonly PublicJwk[] | undefined;
  /** The algorithms a token may be signed with; default all of {@link JWT_ALGORITHMS}, which hold no `none` and no HMAC. */
  readonly algorithms?: readonly JwtAlgorithm[] | undefined;
  /** Leeway for `exp` and `nbf` against this server's clock, 0 to 300 s; default 30. */
  readonly clockToleranceSeconds?: number | undefined;
  /** Scopes a token must grant (space-separated, all of them), from `scope` or `scp`; without them, 403 (1103). Default: none. */
  readonly requiredScope?: string | undefined;
  /** Longest wait for one JWKS fetch; default 5000 ms. */
  readonly jwksTimeoutMs?: number | undefined;
  /** Shortest time between two JWKS fetches, so that unknown kids cannot hammer the issuer; default 30 s. */
  readonly jwksCooldownSeconds?: number | undefined;
  /** Age after which the keys are refetched in the background; default 600 s. */
  readonly jwksMaxAgeSeconds?: number | undefined;
  /** Told when the keys cannot be fetched (the error names the URL, never a token); default `console.error`. */
  readonly onKeysError?: ((error: Error) => void) | undefined;
  /**
   * Most verified tokens remembered, so that a token seen again is answered
   * without checking its signature again; default 10 000, 0 turns remembering
   * off. A remembered token is still refused once its `exp` passes or while
   * its `nbf` is ahead (with `clockToleranceSeconds`), and forgotten when the
   * key that verified it changes or leaves the issuer's keys; a token that
   * fails verification is never remembered. Each one is charged its length and
   * its `kid`'s plus 256 bytes against `tokenCacheMaxBytes`. When full, the oldest token
   * leaves, unless it was used since it came or was last spared (second chance).
   */
  readonly tokenCacheMaxEntries?: number | undefined;
  /**
   * Most bytes the remembered tokens take, each charged its length and its
   * `kid`'s (a JWT is ASCII) plus 256 bytes; default 8 MiB (8 388 608): 10 000
   * tokens whose length and `kid` come to at most 582 characters, or about
   * 6 300 tokens of 1 KB with a 43-character `kid`. 0 turns remembering off.
   */
  readonly tokenCacheMaxBytes?: number | undefined;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * Whether the runtime ties I/O to the request that started it, as Cloudflare
   * Workers do: then no request waits on a JWKS fetch another request started
   * (it checks for that fetch's end every 10 ms instead), and keys past their
   * age are refetched by the request that finds them so, which waits for them.
   * Default: true where `navigator.userAgent` is `Cloudflare-Workers` (workerd),
   * false elsewhere.
   */
  readonly requestScopedIo?: boolean | undefined;
}

const INVALID_TOKEN: AuthRefusal = Object.freeze({ refused: 'invalid-token' });
// RFC 6750 §3 scope-token: printable ASCII but space, `"` and `\`.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;
const DEFAULT_TOKEN_CACHE_MAX_ENTRIES = 10_000;
const DEFAULT_TOKEN_CACHE_MAX_BYTES = 8 * 1024 * 1024;
// The largest time value a Date holds (ECMA-262 TimeClip): jose throws for a clock beyond it, and the memory leaves such a clock to jose.
const MAX_DATE_MS = 8.64e15;

/**
 * An `authenticate` for the handler that accepts JWTs signed by an identity
 * provider (docs/auth.md): the signature by one of the issuer's keys
 * with an allowed asymmetric algorithm, `iss` equal to `issuer`, `aud`
 * naming `audience`, `exp` present and not past, `nbf` not ahead (both
 * with `clockToleranceSeconds`), and the `requiredScope`. A token that fails
 * any of these is refused with 401 (1101), without saying which; a missing
 * scope is 403 (1103); keys that cannot be fetched, with none cached, 503
 * (1104) with `Retry-After`. Nothing of a token is logged. The verifier
 * tells the served document `bearerFormat: JWT`. Verified tokens are
 * remembered (`tokenCacheMaxEntries`, `tokenCacheMaxBytes`): one seen again
 * gets the same answer, synchronously, without a signature check.
 *
 * @throws TypeError at construction for options that cannot work (no issuer
 *   or audience, both or neither of `jwksUrl` and `keys`, a symmetric or
 *   private key, an algorithm outside {@link JWT_ALGORITHMS}).
 * @example
 * const authenticate = jwtAuthenticate({
 *   issuer: 'https://example.eu.auth0.com/',
 *   audience: 'https://plants.example.com',
 *   jwksUrl: 'https://example.eu.auth0.com/.well-known/jwks.json',
 *   requiredScope: 'plants:write',
 * });
 * createPlantHandler({ store, authenticate });
 */
export function jwtAuthenticate(options: JwtAuthenticateOptions): Authenticate {
  const fail = (message: string): never => {
    throw new TypeError(`jwtAuthenticate: ${message}`);
  };
  if (typeof options?.issuer !== 'string' || options.issuer.trim() === '') fail('`issuer` is required: the `iss` of the tokens to accept');
  const audience = typeof options.audience === 'string' ? [options.audience] : options.audience;
  if (!Array.isArray(audience) || audience.length === 0 || !audience.every((name) => typeof name === 'string' && name.trim() !== '')) {
    fail('`audience` is required: the `aud` (a non-empty string, or a list of them) the tokens must name');
  }
  const algorithms = options.algorithms ?? JWT_ALGORITHMS;
  if (!Array.isArray(algorithms) || algorithms.length === 0 || !algorithms.every(isJwtAlgorithm)) {
    fail(`\`algorithms\` must be a non-empty list of ${JWT_ALGORITHMS.join(', ')} (no "none", no HMAC)`);
  }
  const clockTolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!Number.isFinite(clockTolerance) || clockTolerance < 0 || clockTolerance > 300) fail('`clockToleranceSeconds` must be from 0 to 300');
  const required = typeof options.requiredScope === 'string' ? options.requiredScope.split(' ').filter((scope) => scope !== '') : [];
  if (options.requiredScope !== undefined && (required.length === 0 || !required.every((scope) => SCOPE_TOKEN.test(scope)))) {
    fail('`requiredScope` must be scope names (printable ASCII, no `"` or `\\`), space-separated');
  }
  const now = options.now ?? Date.now;
  const cache = tokenCache(options, clockTolerance, fail);
  const lookup = keyLookup(options, now, fail, cache);
  const verifyOptions = { issuer: options.issuer, audience: [...audience], algorithms: [...algorithms], clockTolerance, requiredClaims: ['exp'] };
  const insufficientScope: AuthRefusal = Object.freeze({ refused: 'insufficient-scope', scope: required.join(' ') });
  // A verification looks a key up, and so notices keys past their age: a remembered token is answered after the same check.
  const keepKeysFresh = 'refreshIfStale' in lookup ? lookup.refreshIfStale : () => undefined;
  // One fetch a request at most: after the one keepKeysFresh waited for, the verification starts none.
  const afterFetch = 'afterFetch' in lookup ? lookup.afterFetch : lookup;

  const verify = async (token: string, at: number, keys: KeyLookup = lookup): Promise<AuthVerdict> => {
    // Another spelling of a valid token would verify too, and be counted apart by the rate limit.
    if (!isCanonicalJws(token)) return INVALID_TOKEN;
    const generation = cache?.generation ?? 0;
    let payload: JWTPayload;
    let kid: unknown;
    try {
      ({
        payload,
        protectedHeader: { kid },
      } = await jwtVerify(token, keys, { ...verifyOptions, currentDate: new Date(at) }));
    } catch (error) {
      if (error instanceof KeysUnavailable) return { refused: 'unavailable', retryAfterSeconds: error.retryAfterSeconds };
      // Every way a token can be wrong is a JOSEError; anything else is a fault of this server (500).
      if (error instanceof errors.JOSEError) return INVALID_TOKEN;
      throw error;
    }
    let verdict: true | AuthRefusal = true;
    if (required.length > 0) {
      const granted = readScopes(payload);
      if (!required.every((scope) => granted.has(scope))) verdict = insufficientScope;
    }
    // jose has checked both: exp a number (required), nbf a number or absent.
    cache?.remember(token, { verdict, exp: payload.exp!, nbf: payload.nbf, kid: typeof kid === 'string' ? kid : undefined }, generation);
    return verdict;
  };

  /** The answer remembered for `token` at `at`, if any. */
  const recall = (token: string, at: number): AuthVerdict | undefined => {
    if (cache === undefined) return undefined;
    // jose reads the clock through a Date, in whole seconds; a clock a Date cannot hold is left to jose.
    const ms = Math.trunc(at);
    const remembered = Math.abs(ms) <= MAX_DATE_MS ? cache.read(token, Math.floor(ms / 1000)) : undefined;
    return remembered === false ? INVALID_TOKEN : remembered;
  };

  const authenticate = (token: string): AuthVerdict | Promise<AuthVerdict> => {
    const at = now();
    // Keys fetched now may forget the token (its key changed or left): remembered answers are read after them.
    const refreshing = keepKeysFresh();
    if (refreshing !== undefined) return refreshing.then(() => recall(token, at) ?? verify(token, at, afterFetch));
    return recall(token, at) ?? verify(token, at);
  };
  return Object.assign(authenticate, {
    describes: Object.freeze({
      bearerFormat: 'JWT',
      refusals: Object.freeze([
        ...(required.length > 0 ? (['insufficient-scope'] as const) : []),
        ...(options.keys === undefined ? (['unavailable'] as const) : []),
      ]),
    }),
  });
}

/** The memory of verified tokens the options ask for; undefined when they turn it off. */
function tokenCache(
  options: JwtAuthenticateOptions,
  clockToleranceSeconds: number,
  fail: (message: string) => never,
): VerifiedTokenCache<true | AuthRefusal> | undefined {
  const bound = (name: 'tokenCacheMaxEntries' | 'tokenCacheMaxBytes', fallback: number) => {
    const value = options[name] ?? fallback;
    if (!Number.isSafeInteger(value) || value < 0) fail(`\`${name}\` must be a whole number, 0 or more (0 turns remembering tokens off)`);
    return value;
  };
  const maxEntries = bound('tokenCacheMaxEntries', DEFAULT_TOKEN_CACHE_MAX_ENTRIES);
  const maxBytes = bound('tokenCacheMaxBytes', DEFAULT_TOKEN_CACHE_MAX_BYTES);
  if (maxEntries === 0 || maxBytes <= ENTRY_OVERHEAD_BYTES) return undefined;
  return createVerifiedTokenCache({ maxEntries, maxBytes, clockToleranceSeconds });
}

function keyLookup(
  options: JwtAuthenticateOptions,
  now: () => number,
  fail: (message: string) => never,
  cache: VerifiedTokenCache<unknown> | undefined,
): JwksCache | ReturnType<typeof createLocalJWKSet> {
  if ((options.jwksUrl === undefined) === (options.keys === undefined)) fail('give exactly one of `jwksUrl` and `keys`');
  if (options.keys !== undefined) {
    if (!Array.isArray(options.keys) || options.keys.length === 0) fail('`keys` must be a non-empty list of public JWKs');
    for (const key of options.keys) {
      if (typeof key?.kty !== 'string') fail('`keys`: every key must be a JWK with a `kty`');
      if (key.kty === 'oct') fail('`keys`: a symmetric key ("kty": "oct") cannot verify tokens here; give the issuer\'s public keys');
      if ('d' in key) fail('`keys`: a private key was given; give only the public part (no "d")');
    }
    return createLocalJWKSet({ keys: [...options.keys] } as JSONWebKeySet);
  }
  let url: URL;
  try {
    url = new URL(options.jwksUrl!);
  } catch {
    return fail('`jwksUrl` must be an absolute http: or https: URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail('`jwksUrl` must be an absolute http: or https: URL');
  const seconds = (name: 'jwksCooldownSeconds' | 'jwksMaxAgeSeconds', fallback: number) => {
    const value = options[name] ?? fallback;
    if (!Number.isFinite(value) || value < 0) fail(`\`${name}\` must be a non-negative number of seconds`);
    return value * 1000;
  };
  const timeoutMs = options.jwksTimeoutMs ?? 5000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) fail('`jwksTimeoutMs` must be a positive integer');
  return createJwksCache({
    url,
    timeoutMs,
    cooldownMs: seconds('jwksCooldownSeconds', 30),
    maxAgeMs: seconds('jwksMaxAgeSeconds', 600),
    now,
    onError: options.onKeysError ?? ((error) => console.error(`plant-store: ${error.message}`)),
    onKeys: cache?.keysReplaced,
    requestScopedIo: options.requestScopedIo ?? isWorkers(),
  });
}

/** Whether this is workerd (Cloudflare Workers), which names itself so in `navigator.userAgent`. */
function isWorkers(): boolean {
  return (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers';
}
