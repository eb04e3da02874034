// Runs in vitest on Node: unit tests of create-jwks-cache.ts against a real issuer on 127.0.0.1.
import { errors, type FlattenedJWSInput } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalIssuer, type LocalIssuer } from '../../../runtime-tests/support/local-issuer.ts';
import { createJwksCache, type JwksCacheOptions } from './create-jwks-cache.ts';
import { KeysUnavailable } from './keys-unavailable.ts';
import { until } from '../../../runtime-tests/support/until.ts';

const token = undefined as unknown as FlattenedJWSInput;
const header = (kid: string) => ({ alg: 'RS256', kid });
const issuers: LocalIssuer[] = [];
afterEach(async () => {
  await Promise.all(issuers.splice(0).map((issuer) => issuer.stop()));
});

/** A cache over a fresh issuer with key `a`, on a clock the test moves. */
async function setUp(options: Partial<JwksCacheOptions> = {}) {
  const issuer = await startLocalIssuer();
  issuers.push(issuer);
  await issuer.addKey('a');
  const clock = { ms: 1_000_000 };
  const reported: Error[] = [];
  const lookup = createJwksCache({
    url: new URL(issuer.jwksUrl),
    timeoutMs: 2000,
    cooldownMs: 30_000,
    maxAgeMs: 600_000,
    now: () => clock.ms,
    onError: (error) => reported.push(error),
    ...options,
  });
  return { issuer, clock, reported, lookup };
}

describe('createJwksCache', () => {
  it.each([false, true])(
    'fetches once for many lookups, and once more for a kid it lacks, then not again within the cooldown (requestScopedIo: %s)',
    async (requestScopedIo) => {
      const { issuer, clock, lookup } = await setUp({ requestScopedIo });
      await Promise.all(Array.from({ length: 20 }, () => lookup(header('a'), token)));
      expect(issuer.fetches).toBe(1);
      await issuer.addKey('b');
      clock.ms += 30_000;
      // Concurrent lookups of a new kid share one fetch.
      await Promise.all(Array.from({ length: 20 }, () => lookup(header('b'), token)));
      expect(issuer.fetches).toBe(2);
      const forged = await Promise.allSettled(Array.from({ length: 200 }, (_, index) => lookup(header(`forged-${index}`), token)));
      expect(forged.every((result) => result.status === 'rejected' && result.reason instanceof errors.JWKSNoMatchingKey)).toBe(true);
      expect(issuer.fetches).toBe(2);
      clock.ms += 30_000;
      await expect(lookup(header('forged'), token), 'after the cooldown').rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
      expect(issuer.fetches).toBe(3);
    },
  );

  it('keeps the last good keys while the issuer is down, and says an unknown kid cannot be checked', async () => {
    const { issuer, clock, reported, lookup } = await setUp();
    await lookup(header('a'), token);
    await issuer.stop();
    clock.ms += 600_000;
    // Stale keys are refetched in the background; the refetch fails, and they stay in use.
    await expect(lookup(header('a'), token)).resolves.toBeDefined();
    await expect(lookup(header('a'), token)).resolves.toBeDefined();
    while (reported.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    clock.ms += 30_000;
    const unknown = await lookup(header('b'), token).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(KeysUnavailable);
    expect((unknown as KeysUnavailable).retryAfterSeconds).toBe(30);
    expect(reported.at(-1)!.message).toMatch(/the last good keys stay in use/);
    clock.ms += 10_000;
    // Within the cooldown no fetch is tried, and the client is told when to come back.
    await expect(lookup(header('b'), token)).rejects.toMatchObject({ retryAfterSeconds: 20 });
  });

  it('with nothing cached and the issuer unreachable or too slow, throws KeysUnavailable and tries again only after the cooldown', async () => {
    const { issuer, clock, reported, lookup } = await setUp({ timeoutMs: 300 });
    issuer.hang = true;
    await expect(lookup(header('a'), token)).rejects.toMatchObject({ retryAfterSeconds: 30 });
    expect(reported[0]!.message).toMatch(/could not be fetched .*none are cached/);
    await expect(lookup(header('a'), token)).rejects.toBeInstanceOf(KeysUnavailable);
    expect(issuer.fetches).toBe(1);
    issuer.hang = false;
    clock.ms += 30_000;
    await expect(lookup(header('a'), token)).resolves.toBeDefined();
    expect(issuer.fetches).toBe(2);
  });

  it('tells onKeys of each key set fetched, and of no failed fetch', async () => {
    const told: string[][] = [];
    const { issuer, clock, lookup } = await setUp({ onKeys: (jwks) => told.push(jwks.keys.map((key) => String(key.kid))) });
    await lookup(header('a'), token);
    await issuer.addKey('b');
    clock.ms += 30_000;
    await lookup(header('b'), token);
    await issuer.stop();
    clock.ms += 30_000;
    await expect(lookup(header('c'), token)).rejects.toBeInstanceOf(KeysUnavailable);
    expect(told).toEqual([['a'], ['a', 'b']]);
  });

  it('refetches in the background when refreshIfStale finds the keys past their age, as a lookup would', async () => {
    const told: string[][] = [];
    let replaced!: () => void;
    // The second key set told is the background fetch's: waited for, as it is announced.
    const refetched = new Promise<void>((resolve) => (replaced = resolve));
    const { issuer, clock, lookup } = await setUp({
      onKeys: (jwks) => {
        told.push(jwks.keys.map((key) => String(key.kid)));
        if (told.length === 2) replaced();
      },
    });
    await lookup(header('a'), token);
    await issuer.addKey('b');
    clock.ms += 600_000;
    expect(lookup.refreshIfStale(), 'nothing to wait for').toBeUndefined();
    expect(lookup.refreshIfStale()).toBeUndefined();
    await refetched;
    expect(told).toEqual([['a'], ['a', 'b']]);
    expect(issuer.fetches).toBe(2);
    // Fresh again: no fetch until they age once more.
    clock.ms += 599_999;
    lookup.refreshIfStale();
    await expect(lookup(header('b'), token)).resolves.toBeDefined();
    expect(issuer.fetches).toBe(2);
  });

  it('with requestScopedIo, refetches keys past their age in the lookup that finds them so, which waits for the new keys', async () => {
    const { issuer, clock, lookup } = await setUp({ requestScopedIo: true });
    await lookup(header('a'), token);
    await issuer.addKey('b');
    issuer.published = [issuer.publicJwk('b')];
    clock.ms += 600_000;
    // Key `a` has left: the lookup that found the keys stale already looks in the new ones.
    await expect(lookup(header('a'), token)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
    expect(issuer.fetches).toBe(2);
    await expect(lookup(header('b'), token)).resolves.toBeDefined();
    clock.ms += 600_000;
    const refreshing = lookup.refreshIfStale();
    expect(refreshing, 'a fetch for the caller to wait for').toBeInstanceOf(Promise);
    // Another caller meanwhile uses the keys it has rather than waiting on a fetch it did not start.
    expect(lookup.refreshIfStale()).toBeUndefined();
    await refreshing;
    expect(issuer.fetches).toBe(3);
    expect(lookup.refreshIfStale(), 'fresh again').toBeUndefined();
  });

  it('with requestScopedIo, counts a fetch that has not ended timeoutMs and a second after it began as failed, and ignores its end', async () => {
    const { issuer, clock, reported, lookup } = await setUp({ requestScopedIo: true, timeoutMs: 300 });
    issuer.hang = true;
    // As on workerd when the request that began the fetch has gone: its fetch may never end.
    const first = lookup(header('a'), token).catch((error: unknown) => error);
    await until(() => issuer.fetches === 1, 10_000, 'the first fetch reaching the issuer');
    clock.ms += 1300;
    const unknown = await lookup(header('a'), token).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(KeysUnavailable);
    expect((unknown as KeysUnavailable).retryAfterSeconds).toBe(29);
    expect(reported.map((error) => error.message)).toEqual([
      `JWKS ${issuer.jwksUrl}: the keys could not be fetched (no answer within 1300 ms); none are cached`,
    ]);
    // The first fetch ends (its timeout) after it was counted as failed: nothing more is said, and no keys come of it.
    expect(await first).toBeInstanceOf(KeysUnavailable);
    expect(reported).toHaveLength(1);
    expect(issuer.fetches).toBe(1);
  });

  it.each([false, true])(
    'waits for one fetch at most per lookup: without a cooldown, a kid the keys just fetched lack is not fetched again (requestScopedIo: %s)',
    async (requestScopedIo) => {
      const { issuer, lookup } = await setUp({ cooldownMs: 0, requestScopedIo });
      await expect(lookup(header('b'), token)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
      expect(issuer.fetches).toBe(1);
      // The next lookup may fetch again: there is no cooldown.
      await expect(lookup(header('b'), token)).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
      expect(issuer.fetches).toBe(2);
      await expect(lookup.afterFetch(header('b'), token), 'after a fetch its caller waited for').rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
      expect(issuer.fetches).toBe(2);
    },
  );

  it('counts an answer that is not a JWKS as a failed fetch', async () => {
    const { issuer, reported } = await setUp();
    const lookup = createJwksCache({
      url: new URL('/nothing-here', issuer.url),
      timeoutMs: 2000,
      cooldownMs: 30_000,
      maxAgeMs: 600_000,
      now: () => 0,
      onError: (error) => reported.push(error),
    });
    await expect(lookup(header('a'), token)).rejects.toBeInstanceOf(KeysUnavailable);
    expect(reported[0]!.message).toMatch(/HTTP 404/);
  });
});
