// Runs anywhere: plain data in a Map, no runtime API.
import type { JSONWebKeySet } from 'jose';

/** A token that passed verification, remembered with what can still change its answer. */
export interface VerifiedToken<Verdict> {
  /** What its verification answered (acceptance, or a refusal its verified claims earned). */
  readonly verdict: Verdict;
  /** Its `exp`, as verified. */
  readonly exp: number;
  /** Its `nbf`, when it has one. */
  readonly nbf: number | undefined;
  /** The `kid` of its protected header: the key it was verified with, among the issuer's. */
  readonly kid: string | undefined;
}

/** Bounds and leeway of {@link createVerifiedTokenCache}. */
export interface VerifiedTokenCacheOptions {
  /** Most tokens remembered at once; at least 1. */
  readonly maxEntries: number;
  /** Most bytes charged at once: each token's length and its `kid`'s, plus {@link ENTRY_OVERHEAD_BYTES}. */
  readonly maxBytes: number;
  /** The verifier's leeway for `exp` and `nbf`, in seconds. */
  readonly clockToleranceSeconds: number;
}

/** Tokens already verified, and the answers they got; see {@link createVerifiedTokenCache}. */
export interface VerifiedTokenCache<Verdict> {
  /**
   * What a fresh verification at `nowSeconds` (whole seconds since the epoch)
   * would answer for `token`, when it is remembered: its verdict, or `false`
   * when its `exp` has passed or its `nbf` is ahead, with the leeway, as jose
   * decides both. `undefined`: not remembered, verify it. A token read is
   * marked used, which spares it the next time it is the oldest.
   */
  read(token: string, nowSeconds: number): Verdict | false | undefined;
  /**
   * Remembers `token`, verified with the keys of `generation` (read before
   * the verification began); nothing when the keys were replaced since, or
   * when the token alone exceeds `maxBytes`. To make room, the oldest token
   * leaves, unless it was used since it came in or was last spared: then it
   * goes to the back, unmarked (second chance, close to least recently used).
   */
  remember(token: string, verified: VerifiedToken<Verdict>, generation: number): void;
  /** The key set's generation, which {@link VerifiedTokenCache.keysReplaced} advances when the keys change. */
  readonly generation: number;
  /**
   * A key set was fetched and replaced the last: when it differs, forgets
   * every token whose key may differ in it (its `kid`'s keys changed or left;
   * any change, for a token without `kid`) and starts a new generation.
   */
  keysReplaced(jwks: JSONWebKeySet): void;
  /** How many tokens are remembered. */
  readonly size: number;
  /** The bytes charged for them. */
  readonly bytes: number;
}

/**
 * What one entry costs beside the characters of its token and its `kid`
 * (each entry has its own `kid`, as jose parses it from the token), charged
 * against `maxBytes`: a Map slot in the table the Map keeps once tokens have
 * been evicted, the entry object, the headers of both strings and the
 * `Bearer ` of the header the token is a slice of. Measured at 225 to 233
 * bytes on Node 24 and 243 on Bun, with a 43-character `kid`, after three
 * times the cache's size went through it (scripts/measure-remembered-tokens.mjs),
 * rounded up. A JWT is ASCII, one byte a character.
 */
export const ENTRY_OVERHEAD_BYTES = 256;

/** What a remembered token is charged against `maxBytes`. */
function costOf(token: string, kid: string | undefined): number {
  return token.length + (kid?.length ?? 0) + ENTRY_OVERHEAD_BYTES;
}

/** An entry: what the token was verified with, and whether it was read since it was last the oldest. */
interface Entry<Verdict> extends VerifiedToken<Verdict> {
  used: boolean;
}

/** A key set, reduced to what decides which key verifies which token. */
interface KeyPrint {
  /** The whole set. */
  readonly all: string;
  /** Per `kid`, the keys that carry it, in order. */
  readonly byKid: ReadonlyMap<string, string>;
}

/**
 * A bounded memory of verified JWTs, keyed by the whole token, so that no
 * other token can ever read an entry; the oldest unused token leaves first. A
 * remembered token is still refused once its `exp` passes or while its `nbf`
 * is ahead, and forgotten when the key that verified it changes or leaves
 * the issuer's keys (`keysReplaced`). Only verified tokens go in; a
 * verification that overlapped a key change is not remembered, since it may
 * have used the keys that left.
 *
 * @example
 * const cache = createVerifiedTokenCache<true>({ maxEntries: 10_000, maxBytes: 8 * 1024 * 1024, clockToleranceSeconds: 30 });
 * const generation = cache.generation;
 * const { payload, protectedHeader } = await jwtVerify(token, keys, options);
 * cache.remember(token, { verdict: true, exp: payload.exp!, nbf: payload.nbf, kid: protectedHeader.kid }, generation);
 * cache.read(token, Math.floor(Date.now() / 1000)); // true
 */
export function createVerifiedTokenCache<Verdict>(options: VerifiedTokenCacheOptions): VerifiedTokenCache<Verdict> {
  const { maxEntries, maxBytes, clockToleranceSeconds: tolerance } = options;
  // The Map's order is the line: a read only marks its entry, since moving it
  // (delete, then set) on every request would churn the Map on the hot path.
  const entries = new Map<string, Entry<Verdict>>();
  let bytes = 0;
  let generation = 0;
  let keys: KeyPrint | undefined;
  // One iterator walks the line across the evictions of a full cache: a fresh
  // one would step again over every slot already emptied at the front of the
  // Map, each time. It is dropped whenever a token fits without an eviction,
  // so that it never holds on to the tables the Map has since outgrown.
  let line: Iterator<[string, Entry<Verdict>]> | undefined;

  const drop = (token: string, entry: Entry<Verdict>) => {
    entries.delete(token);
    bytes -= costOf(token, entry.kid);
  };
  const forget = (token: string) => {
    const entry = entries.get(token);
    if (entry !== undefined) drop(token, entry);
  };
  const evictOldest = () => {
    for (;;) {
      let next = line?.next();
      if (next === undefined || next.done === true) {
        line = entries.entries();
        next = line.next();
        if (next.done === true) return;
      }
      const [token, entry] = next.value;
      if (!entry.used) return drop(token, entry);
      // Spared: to the back of the line, where the walk meets it again after every older token.
      entry.used = false;
      entries.delete(token);
      entries.set(token, entry);
    }
  };

  return {
    read(token, nowSeconds) {
      const entry = entries.get(token);
      if (entry === undefined) return undefined;
      // jose's own tests (jwt_claims_set): refused when exp <= now - tolerance, or nbf > now + tolerance.
      if (entry.exp <= nowSeconds - tolerance) {
        forget(token);
        return false;
      }
      if (entry.nbf !== undefined && entry.nbf > nowSeconds + tolerance) return false;
      entry.used = true;
      return entry.verdict;
    },
    remember(token, verified, since) {
      const { verdict, exp, nbf, kid } = verified;
      const cost = costOf(token, kid);
      if (since !== generation || cost > maxBytes) return;
      forget(token);
      entries.set(token, { verdict, exp, nbf, kid, used: false });
      bytes += cost;
      if (entries.size <= maxEntries && bytes <= maxBytes) {
        line = undefined;
        return;
      }
      while (entries.size > maxEntries || bytes > maxBytes) evictOldest();
    },
    get generation() {
      return generation;
    },
    keysReplaced(jwks) {
      const previous = keys;
      const next = printKeys(jwks);
      keys = next;
      // The same keys again, or the first keys with nothing remembered: every verification holds as it is.
      if (previous !== undefined ? previous.all === next.all : entries.size === 0) return;
      generation++;
      for (const [token, entry] of entries) {
        const kept = previous !== undefined && entry.kid !== undefined && previous.byKid.get(entry.kid) === next.byKid.get(entry.kid);
        if (!kept) forget(token);
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/**
 * jose picks the key for a token among those whose `kid` equals the token's
 * (all of them, for a token without one), by each key's own members: the
 * same keys under a `kid`, member for member, verify the same tokens.
 */
function printKeys(jwks: JSONWebKeySet): KeyPrint {
  const byKid = new Map<string, string>();
  for (const jwk of jwks.keys) {
    if (typeof jwk.kid === 'string') byKid.set(jwk.kid, `${byKid.get(jwk.kid) ?? ''}${JSON.stringify(jwk)}\n`);
  }
  return { all: JSON.stringify(jwks.keys), byKid };
}
