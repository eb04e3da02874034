// Runs anywhere (no runtime API): the steps of `POST {basePath}/plants`, from the bearer token to the stored plant.
import { authRefusalResponse } from './auth-refusal-response.ts';
import { authenticateThen } from './authenticate-then.ts';
import { startCreatePlant, type Created } from '../domain/create-plant.ts';
import { errorResponse, JSON_HEADERS, PROTOCOL_ERRORS } from './error-response.ts';
import type { Result } from '../domain/failure.ts';
import type { BodyResult, PlantResponse } from './http-types.ts';
import { isJsonMediaType } from './is-json-media-type.ts';
import { isThenable } from '../domain/is-thenable.ts';
import { parseNewPlant } from '../domain/parse-new-plant.ts';
import { answerAfter, reportFailure, type Outcome, type PlantExchange } from './plant-exchange.ts';

const BODY_MISSING = errorResponse('body-missing', 'body: required; expected a JSON NewPlant object');
const BODY_ABORTED = errorResponse('body-missing', 'body: the request body was not received completely');
const UNSUPPORTED_MEDIA_TYPE = errorResponse('unsupported-media-type', 'content-type: expected application/json (UTF-8)');
// The rest of a body cut by the deadline is never read, so the connection cannot carry another request:
// the 408 closes it, as the Node server's own 408 does.
const TIMED_OUT: PlantResponse = {
  ...PROTOCOL_ERRORS['request-timeout'],
  headers: Object.freeze({ ...PROTOCOL_ERRORS['request-timeout'].headers, connection: 'close' }),
};

// Each step goes on at once with whatever is already at hand (a synchronous
// verifier, a body already read, the memory store's answer), so a create
// takes no more turns of the event loop than its inputs need; a step that
// must wait returns the Later of answerAfter, naming the step that goes on.

/**
 * Answers a POST on the create route, in the order of docs/contract.md
 * ("Order of checks"): credentials, the verifier, the body, its media type,
 * validation, the store.
 *
 * @example
 * answer(new PlantExchange(settings, request, PLANTS, undefined, undefined, undefined, respond), createFromRequest);
 */
export function createFromRequest(exchange: PlantExchange): Outcome {
  return authenticateThen(exchange, readIfAccepted);
}

function readIfAccepted(exchange: PlantExchange, verdict: unknown, token: string): Outcome {
  // Only `true` lets a request in, whatever else a verifier returns or resolves to.
  if (verdict !== true) return authRefusalResponse(verdict);
  const { hooks, body: limit } = exchange.settings;
  if (hooks !== undefined) {
    // The rate limit counts a token only once it is accepted. Indexed: an iterator per create costs Bun more.
    const { accepted } = hooks;
    for (let i = 0; i < accepted.length; i++) {
      const refusal = accepted[i]!(token);
      if (refusal !== undefined) return refusal;
    }
  }
  const body = exchange.request.readBody(limit.maxBytes);
  return isThenable(body) ? answerAfter(exchange, body, createFromBody) : createFromBody(exchange, body);
}

function createFromBody(exchange: PlantExchange, body: BodyResult): Outcome {
  if (!body.ok) return body.reason === 'too-large' ? exchange.settings.body.tooLarge : body.reason === 'timed-out' ? TIMED_OUT : BODY_ABORTED;
  if (body.bytes.length === 0) return BODY_MISSING;
  if (!isJsonMediaType(exchange.request.header('content-type'))) return UNSUPPORTED_MEDIA_TYPE;
  const parsed = parseNewPlant(body.bytes);
  if (!parsed.ok) return reportFailure(exchange, parsed.error);
  const { store, createOptions } = exchange.settings;
  exchange.watch?.storeStarted();
  const created = startCreatePlant(store, parsed.value, createOptions);
  return isThenable(created) ? answerAfter(exchange, created, createdResponse) : createdResponse(exchange, created);
}

function createdResponse(exchange: PlantExchange, created: Result<Created>): Outcome {
  exchange.watch?.storeEnded(created);
  if (!created.ok) return reportFailure(exchange, created.error);
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(created.value.plant) };
}
