// Runs anywhere (no runtime API): the bearer check the create and metrics routes begin with.
import { TOKEN_REJECTED } from './auth-refusal-response.ts';
import { readBearerCredential } from './authenticate.ts';
import { errorResponse } from './error-response.ts';
import { isThenable } from '../domain/is-thenable.ts';
import { answerAfter, type Outcome, type PlantExchange } from './plant-exchange.ts';

const UNAUTHENTICATED = errorResponse('unauthenticated', 'authorization: expected "Bearer <token>"');

/**
 * Checks the request's bearer credential (docs/contract.md,
 * "Authentication"): none is 401 (1100), and one that is no token 401 (1101)
 * without asking the verifier; else the verifier's verdict goes to `then`,
 * at once or once it settles, with the token, and `then` decides what it
 * lets in (only `true`, by the contract).
 *
 * @example
 * export const createFromRequest = (exchange: PlantExchange) => authenticateThen(exchange, readIfAccepted);
 */
export function authenticateThen(exchange: PlantExchange, then: (exchange: PlantExchange, verdict: unknown, token: string) => Outcome): Outcome {
  const { request } = exchange;
  const credential = readBearerCredential(request.header('authorization'));
  if (credential.kind === 'missing') return UNAUTHENTICATED;
  if (credential.kind === 'malformed') return TOKEN_REJECTED;
  const verdict = exchange.settings.authenticate(credential.token, request);
  const { token } = credential;
  // A verifier that answers later costs the one closure that carries the token on.
  return isThenable(verdict) ? answerAfter(exchange, verdict, (later, settled) => then(later, settled, token)) : then(exchange, verdict, token);
}
