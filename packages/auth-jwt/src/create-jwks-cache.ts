// Runs anywhere with WHATWG fetch and AbortSignal.timeout (Node 20+, Bun, Deno, workerd): the issuer's keys, fetched and kept.
import { createLocalJWKSet, errors, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import { KeysUnavailable } from './keys-unavailable.ts';
import { usableKeys } from './usable-keys.ts';

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
  /** Told of every failed fetch, and of every key left out of a key set fetched ({@link usableKeys}); the error names the URL, never a token. */
  readonly onError: (error: Error) => void;
  /**
   * Told of every key set fetched, as it replaces the last one and before any
   * lookup can use it: whoever remembers what the last keys verified learns
   * here which keys changed or left.
   */
  readonly onKeys?: ((jwks: JSONWebKeySet) => void) | undefined;
  /**
   * Whether I/O belongs to the request that started it, as on Cloudflare
   * Workers (workerd): there a fetch left running when its request has
   * answered never ends, and a request that awaits a promise another request
   * settles can be cancelled. Then no lookup awaits another's fetch (it checks
   * every {@link POLL_MS} ms whether that fetch has ended, and counts one that has
   * not ended `timeoutMs` plus a second after it began as failed), and keys past
   * their age are refetched by the request that finds them so, which waits
   * for the fetch. Default: false.
   */
  readonly requestScopedIo?: boolean | undefined;
}

type LocalKeys = ReturnType<typeof createLocalJWKSet>;

/** A key lookup for jose's `jwtVerify`, by the token's protected header; the key as jose's own JWKS lookup gives it. */
export type KeyLookup = (header: JWSHeaderParameters, token: FlattenedJWSInput) => ReturnType<LocalKeys>;

/** The {@link KeyLookup} of {@link createJwksCache}, and the age check a lookup makes, for a caller that answers without a lookup. */
export type JwksCache = KeyLookup & {
  /**
   * Starts a refetch when the keys are older than `maxAgeMs`, as every lookup
   * does. Without `requestScopedIo` it never waits and returns undefined; with
   * it, it returns the fetch it started, which the caller must await before
   * answering (a fetch its request does not wait for never ends there).
   */
  readonly refreshIfStale: () => Promise<void> | undefined;
  /** The lookup for a caller that has just waited for the fetch `refreshIfStale` returned: it starts no other. */
  readonly afterFetch: KeyLookup;
};

/** How often, with `requestScopedIo`, a lookup checks whether another request's fetch has ended. */
export const POLL_MS = 10;
// A fetch ends by `timeoutMs` where its request lives; one past this margin belongs to a request that has gone.
const ABANDONED_AFTER_MS = 1000;

/** A fetch under way: whose end every lookup that needs keys waits for. */
interface Fetching {
  readonly done: Promise<void>;
  /** When, on the cache's clock, a fetch that has not ended counts as failed. */
  readonly abandonAt: number;
}

/**
 * The keys of a JWKS URL, fetched when first needed and kept. A token whose
 * `kid` they lack makes the cache fetch them again, as an issuer that rotated
 * its keys needs, but no fetch starts within `cooldownMs` of the last one and
 * requests that arrive while one runs wait for it, so a stream of forged kids
 * costs the issuer at most one fetch per cooldown. Keys older than `maxAgeMs`
 * are refetched in the background (with `requestScopedIo`, by the request
 * that finds them so) and used meanwhile; a failed fetch keeps the last good
 * keys, and a key that could not verify a token is left out of a key set
 * fetched (its tokens are refused as of an unknown key, and a set the issuer
 * mends is fetched again as for a new kid). The lookup throws {@link KeysUnavailable} when it cannot tell: no
 * keys were ever fetched, or the kid is unknown and the last fetch failed.
 * Each key set fetched goes to `onKeys` as it replaces the last.
 *
 * @example
 * const lookup = createJwksCache({ url, timeoutMs: 5000, cooldownMs: 30_000, maxAgeMs: 600_000, now: Date.now, onError: console.error });
 * await jwtVerify(token, lookup, { issuer, audience });
 */
export function createJwksCache(options: JwksCacheOptions): JwksCache {
  const { url, timeoutMs, cooldownMs, maxAgeMs, now, onError, onKeys, requestScopedIo = false } = options;
  let keys: LocalKeys | undefined;
  let fetchedAt = 0;
  let attemptedAt = -Infinity;
  let lastFailed = false;
  let fetching: Fetching | undefined;

  // The key set as fetched too, for onKeys: createLocalJWKSet checked it and keeps its own copy, so this one is no one else's.
  const load = async (): Promise<{ readonly jwks: JSONWebKeySet; readonly local: LocalKeys }> => {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      // Drain it, so that a kept-alive connection can serve the next fetch.
      await response.body?.cancel();
      throw new Error(`JWKS ${url.href}: HTTP ${response.status}`);
    }
    const fetched = (await response.json()) as JSONWebKeySet;
    // Refuses what is not a key set at all, as a failed fetch; made again only from the keys left once some are left out.
    const local = createLocalJWKSet(fetched);
    const { jwks, leftOut } = await usableKeys(fetched);
    for (const { key, reason } of leftOut) onError(new Error(`JWKS ${url.href}: key ${key} left out (${reason}); tokens it signed are refused`));
    return { jwks, local: jwks === fetched ? local : createLocalJWKSet(jwks) };
  };

  const failed = (reason: string) => {
    lastFailed = true;
    onError(
      new Error(`JWKS ${url.href}: the keys could not be fetched (${reason}); ${keys === undefined ? 'none are cached' : 'the last good keys stay in use'}`),
    );
  };

  /** Starts a fetch; its promise is for the caller alone to await where I/O is request-scoped. */
  const start = (): Promise<void> => {
    attemptedAt = now();
    // Only the fetch under way when it ends may change the keys: one counted as abandoned has been replaced or has failed.
    const current: Fetching = {
      abandonAt: attemptedAt + timeoutMs + ABANDONED_AFTER_MS,
      done: load().then(
        (loaded) => {
          if (fetching !== current) return;
          fetching = undefined;
          keys = loaded.local;
          fetchedAt = now();
          lastFailed = false;
          onKeys?.(loaded.jwks);
        },
        (error: unknown) => {
          if (fetching !== current) return;
          fetching = undefined;
          failed(error instanceof Error ? error.message : String(error));
        },
      ),
    };
    fetching = current;
    return current.done;
  };

  /** Whether a fetch is under way, once one whose request has gone (past its `abandonAt`) is counted as failed. */
  const underWay = (): boolean => {
    if (fetching === undefined || now() < fetching.abandonAt) return fetching !== undefined;
    fetching = undefined;
    failed(`no answer within ${timeoutMs + ABANDONED_AFTER_MS} ms`);
    return false;
  };

  /** The end of `running`, another lookup's fetch: its promise where promises may cross requests, else checked for. */
  const join = async (running: Fetching): Promise<void> => {
    if (!requestScopedIo) return running.done;
    while (fetching === running && underWay()) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  };

  /** A fetch now, or the end of the one already running; `undefined` while the cooldown lasts. */
  const fetchOrJoin = (): Promise<void> | undefined => {
    if (fetching !== undefined) return join(fetching);
    return now() - attemptedAt >= cooldownMs ? start() : undefined;
  };

  const unavailable = () => new KeysUnavailable(Math.max(1, Math.ceil((attemptedAt + cooldownMs - now()) / 1000)));

  const refreshIfStale = (): Promise<void> | undefined => {
    if (keys === undefined || now() - fetchedAt < maxAgeMs) return undefined;
    if (!requestScopedIo) {
      void fetchOrJoin();
      return undefined;
    }
    // Another request's refetch is not waited for: the keys it replaces are still good meanwhile.
    return underWay() || now() - attemptedAt < cooldownMs ? undefined : start();
  };

  /**
   * A lookup that waits for one fetch at most, none when `waited` (its caller has just waited for one): with no
   * cooldown, a kid the keys just fetched lack, or a refetch that just failed, would otherwise start another.
   */
  const lookupAfter =
    (waited: boolean): KeyLookup =>
    async (header, token) => {
      let fetched = waited;
      if (keys === undefined) {
        if (!fetched) {
          const first = fetchOrJoin();
          fetched = first !== undefined;
          await first;
        }
        if (keys === undefined) throw unavailable();
      } else if (!fetched) {
        const refreshing = refreshIfStale();
        if (refreshing !== undefined) {
          fetched = true;
          await refreshing;
        }
      }
      try {
        return await keys(header, token);
      } catch (error) {
        if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
        const refetch = fetched ? undefined : fetchOrJoin();
        // Within the cooldown the kept keys answer, unless the issuer was unreachable at the last try.
        if (refetch === undefined && !lastFailed) throw error;
        await refetch;
        if (lastFailed) throw unavailable();
        return keys(header, token);
      }
    };
  return Object.assign(lookupAfter(false), { refreshIfStale, afterFetch: lookupAfter(true) });
}
