// Runs on Node 22.18+ (`node --expose-gc`) or Bun, after `pnpm build`: what a repeated token costs the verifier with
// and without its memory of verified tokens, and what one remembered token costs in memory. Measures, asserts nothing:
//   node --expose-gc packages/auth-jwt/scripts/measure-remembered-tokens.mjs
//   bun packages/auth-jwt/scripts/measure-remembered-tokens.mjs
import { staticTokens } from '@plant-store/core';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { jwtAuthenticate } from '../dist/index.js';
import { createVerifiedTokenCache } from '../src/create-verified-token-cache.ts';

const ISSUER = 'https://issuer.example/';
const AUDIENCE = 'https://plants.example';
const ROUNDS = 5;
/** @type {import('@plant-store/core').PlantRequest} */
const noRequest = /** @type {never} */ (undefined);

/**
 * Nanoseconds per call of `authenticate` with one token, each call awaited only when it returned a promise, as the
 * core does: the best of ROUNDS rounds of `calls` calls, after one round of warm-up.
 * @param {import('@plant-store/core').Authenticate} authenticate
 * @param {string} token
 * @param {number} calls
 */
async function nsPerCall(authenticate, token, calls) {
  let best = Infinity;
  for (let round = 0; round <= ROUNDS; round++) {
    const began = process.hrtime.bigint();
    for (let call = 0; call < calls; call++) {
      const verdict = authenticate(token, noRequest);
      if ((verdict instanceof Promise ? await verdict : verdict) !== true) throw new Error('measure-remembered-tokens: the token was refused');
    }
    const ns = Number(process.hrtime.bigint() - began) / calls;
    if (round > 0) best = Math.min(best, ns);
  }
  return best;
}

/** @param {'RS256' | 'ES256'} alg */
async function signed(alg) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = /** @type {import('../src/index.ts').PublicJwk} */ ({ ...(await exportJWK(publicKey)), kid: 'k', alg });
  const token = await new SignJWT({ scope: 'plants:write' })
    .setProtectedHeader({ alg, kid: 'k' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setExpirationTime('2h')
    .sign(privateKey);
  return { publicJwk, token };
}

const gc = /** @type {{ gc?: () => void; Bun?: { gc(force: boolean): void } }} */ (globalThis);
const collect = () => (gc.Bun !== undefined ? gc.Bun.gc(true) : gc.gc?.());
// Bun keeps a string's characters outside its garbage-collected heap (heapUsed counts neither): both counted.
const jsc = 'bun:jsc';
/** @type {{ heapStats(): { heapSize: number; extraMemorySize: number } } | undefined} */
const bunHeap = gc.Bun !== undefined ? await import(jsc) : undefined;
const heapBytes = () => {
  if (bunHeap === undefined) return process.memoryUsage().heapUsed;
  const { heapSize, extraMemorySize } = bunHeap.heapStats();
  return heapSize + extraMemorySize;
};

/** A `kid` as issuers write them (a 43-character base64url thumbprint): each token's own copy, as jose parses it. */
const KID = 'NjVBRjY5MDlCMUIwNzU4RTA2QzZFMDQ4QzQ2MDAyQjU';

/**
 * Heap bytes per remembered token of `length` characters beyond its characters and its `kid`'s: a cache of `count`
 * after three times as many tokens went through it (the evictions leave the Map's table at the size it keeps), each
 * a slice of its own `Authorization` header as the core hands it over, with a `kid` of its own as jose parses it.
 * @param {number} length
 * @param {number} count
 */
function bytesPerEntry(length, count) {
  collect();
  const before = heapBytes();
  const cache = createVerifiedTokenCache({ maxEntries: count, maxBytes: Number.MAX_SAFE_INTEGER, clockToleranceSeconds: 30 });
  for (let index = 0; index < 3 * count; index++) {
    const header = `Bearer ${String(index).padStart(10, '0')}`.padEnd(length + 7, 'x');
    cache.remember(header.slice(7), { verdict: true, exp: 2e9, nbf: undefined, kid: JSON.parse(`"${KID}"`) }, 0);
  }
  // What the cache holds once the requests are gone: its entries, the tokens and the headers they are slices of.
  collect();
  const after = heapBytes();
  if (cache.size !== count) throw new Error('measure-remembered-tokens: not all tokens were remembered');
  return (after - before) / count - length - KID.length;
}

if (gc.Bun === undefined && gc.gc === undefined) throw new Error('measure-remembered-tokens: run Node with --expose-gc');
const runtime = gc.Bun !== undefined ? `Bun ${process.versions['bun']}` : `Node ${process.versions.node}`;
const fixed = staticTokens(['static-token-of-thirty-two-chars']);
const rows = [['static token (reference)', await nsPerCall(fixed, 'static-token-of-thirty-two-chars', 200_000)]];
for (const alg of /** @type {const} */ (['RS256', 'ES256'])) {
  const { publicJwk, token } = await signed(alg);
  const options = { issuer: ISSUER, audience: AUDIENCE, keys: [publicJwk], requiredScope: 'plants:write' };
  rows.push([`${alg} (${token.length} chars), verified every time`, await nsPerCall(jwtAuthenticate({ ...options, tokenCacheMaxEntries: 0 }), token, 2000)]);
  rows.push([`${alg}, remembered`, await nsPerCall(jwtAuthenticate(options), token, 200_000)]);
}
console.log(runtime);
for (const [what, ns] of rows) console.log(`  ${String(what).padEnd(48)} ${Number(ns).toFixed(0).padStart(8)} ns per call`);
for (const length of [800, 2000]) {
  console.log(`  one remembered token of ${length} chars, kid of ${KID.length}: ${length} + ${KID.length} + ${bytesPerEntry(length, 10_000).toFixed(0)} bytes`);
}
