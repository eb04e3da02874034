// Runs anywhere (no runtime API): the answer to a verifier's refusal, from the error table.
import { errorResponse, REALM } from './error-response.ts';
import type { PlantResponse } from './http-types.ts';

/** The 401 (1101) of a token that was presented and rejected. */
export const TOKEN_REJECTED = errorResponse('token-rejected', 'authorization: the token was rejected');
// RFC 6750 §3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), space-separated;
// a scope outside it is left out of the header rather than breaking it.
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;
// A retry sooner than a second would only hammer a verifier that is waiting on its issuer;
// later than an hour says nothing useful.
const MIN_RETRY_SECONDS = 1;
const MAX_RETRY_SECONDS = 3600;

/**
 * The answer to a verdict other than `true` (docs/contract.md,
 * "Authentication"): `insufficient-scope` is 403 (1103) with
 * `WWW-Authenticate: Bearer realm="plant-store", error="insufficient_scope", scope="…"`;
 * `unavailable` is 503 (1104) with `Retry-After` (whole seconds, 1 to 3600);
 * anything else, `false` included, is 401 (1101) with `error="invalid_token"`.
 *
 * @example
 * authRefusalResponse({ refused: 'unavailable', retryAfterSeconds: 5 }).status; // 503
 */
export function authRefusalResponse(verdict: unknown): PlantResponse {
  if (typeof verdict !== 'object' || verdict === null) return TOKEN_REJECTED;
  const refusal = verdict as { refused?: unknown; scope?: unknown; retryAfterSeconds?: unknown };
  if (refusal.refused === 'insufficient-scope') {
    const scope = typeof refusal.scope === 'string' && SCOPE.test(refusal.scope) ? refusal.scope : undefined;
    const challenge = `${REALM}, error="insufficient_scope"${scope === undefined ? '' : `, scope="${scope}"`}`;
    const message = `authorization: the token does not grant the required scope${scope === undefined ? '' : ` "${scope}"`}`;
    return errorResponse('insufficient-scope', message, { 'www-authenticate': challenge });
  }
  if (refusal.refused === 'unavailable') {
    const given = typeof refusal.retryAfterSeconds === 'number' && Number.isFinite(refusal.retryAfterSeconds) ? refusal.retryAfterSeconds : MIN_RETRY_SECONDS;
    const seconds = Math.min(MAX_RETRY_SECONDS, Math.max(MIN_RETRY_SECONDS, Math.ceil(given)));
    return errorResponse('verifier-unavailable', 'authorization: the token cannot be checked now; retry later', { 'retry-after': String(seconds) });
  }
  return TOKEN_REJECTED;
}
