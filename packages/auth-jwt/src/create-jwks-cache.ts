// Runs anywhere with WHATWG fetch and AbortSignal.timeout (Node 20+, Bun, Deno, workerd): the issuer's keys, fetched and kept.
import { createLocalJWKSet, errors, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import { KeysUnavailable } from './keys-unavailable.ts';

/** What {@link createJwksCache} needs: where the keys are and how often it may ask. */
export interface JwksCacheOptions {
  readonly url: URL;
  /** Longest wait for one fetch, body included. */
  readonly timeoutMs: number;
  /** Shortest time between two fetches, whatever asks for them. */
  readonly cooldownMs: number;
  /** Age after which the keys are refetched in the background, while still used. */
  readonly maxAgeMs: number;
  /** The clock, in milliseconds. */
  readonly now: () => number;
  /** Told of every failed fetch; the error names the URL, never a token. */
  readonly onError: (error: Error) => void;
  /**
   * Told of every key set fetched, as it replaces the last one and before any
   * lookup can use it: whoever remembers what the last keys verified learns
   * here which keys changed or left.
   */
  readonly onKeys?: ((jwks: JSONWebKeySet) => void) | undefined;
}

type LocalKeys = ReturnType<typeof createLocalJWKSet>;

/** A key lookup for jose's `jwtVerify`, by the token's protected header; the key as jose's own JWKS lookup gives it. */
export type KeyLookup = (header: JWSHeaderParameters, token: FlattenedJWSInput) => ReturnType<LocalKeys>;

/** The {@link KeyLookup} of {@link createJwksCache}, and the age check a lookup makes, for a caller that answers without a lookup. */
export type JwksCache = KeyLookup & {
  /** Starts a background refetch when the keys are older than `maxAgeMs`, as every lookup does; never waits for it. */
  readonly refreshIfStale: () => void;
};

/**
 * The keys of a JWKS URL, fetched when first needed and kept. A token whose
 * `kid` they lack makes the cache fetch them again, as an issuer that rotated
 * its keys needs, but no fetch starts within `cooldownMs` of the last one and
 * requests that arrive while one runs wait for it, so a stream of forged kids
 * costs the issuer at most one fetch per cooldown. Keys older than `maxAgeMs`
 * are refetched in the background and used meanwhile; a failed fetch keeps
 * the last good keys. The lookup throws {@link KeysUnavailable} when it cannot
 * tell: no keys were ever fetched, or the kid is unknown and the last fetch failed.
 * Each key set fetched goes to `onKeys` as it replaces the last.
 *
 * @example
 * const lookup = createJwksCache({ url, timeoutMs: 5000, cooldownMs: 30_000, maxAgeMs: 600_000, now: Date.now, onError: console.error });
 * await jwtVerify(token, lookup, { issuer, audience });
 */
export function createJwksCache(options: JwksCacheOptions): JwksCache {
  const { url, timeoutMs, cooldownMs, maxAgeMs, now, onError, onKeys } = options;
  let keys: LocalKeys | undefined;
  let fetchedAt = 0;
  let attemptedAt = -Infinity;
  let lastFailed = false;
  let pending: Promise<void> | undefined;

  // The key set as fetched too, for onKeys: createLocalJWKSet checked it and keeps its own copy, so this one is no one else's.
  const load = async (): Promise<{ readonly jwks: JSONWebKeySet; readonly local: LocalKeys }> => {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      // Drain it, so that a kept-alive connection can serve the next fetch.
      await response.body?.cancel();
      throw new Error(`JWKS ${url.href}: HTTP ${response.status}`);
    }
    const jwks = (await response.json()) as JSONWebKeySet;
    return { jwks, local: createLocalJWKSet(jwks) };
  };

  const refresh = (): Promise<void> => {
    if (pending !== undefined) return pending;
    attemptedAt = now();
    pending = load().then(
      (loaded) => {
        keys = loaded.local;
        fetchedAt = now();
        lastFailed = false;
        onKeys?.(loaded.jwks);
      },
      (error: unknown) => {
        lastFailed = true;
        const reason = error instanceof Error ? error.message : String(error);
        onError(
          new Error(
            `JWKS ${url.href}: the keys could not be fetched (${reason}); ${keys === undefined ? 'none are cached' : 'the last good keys stay in use'}`,
          ),
        );
      },
    );
    void pending.finally(() => (pending = undefined));
    return pending;
  };

  /** A fetch now, or the one already running; `undefined` while the cooldown lasts. */
  const fetchOrJoin = (): Promise<void> | undefined => (pending !== undefined || now() - attemptedAt >= cooldownMs ? refresh() : undefined);

  const unavailable = () => new KeysUnavailable(Math.max(1, Math.ceil((attemptedAt + cooldownMs - now()) / 1000)));

  const refreshIfStale = () => {
    if (keys !== undefined && now() - fetchedAt >= maxAgeMs) void fetchOrJoin();
  };

  const lookup: KeyLookup = async (header, token) => {
    if (keys === undefined) {
      await fetchOrJoin();
      if (keys === undefined) throw unavailable();
    } else {
      refreshIfStale();
    }
    try {
      return await keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      const fetching = fetchOrJoin();
      // Within the cooldown the kept keys answer, unless the issuer was unreachable at the last try.
      if (fetching === undefined && !lastFailed) throw error;
      await fetching;
      if (lastFailed) throw unavailable();
      return keys(header, token);
    }
  };
  return Object.assign(lookup, { refreshIfStale });
}
