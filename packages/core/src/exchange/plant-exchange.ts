// Runs anywhere (no runtime API): one request on its way through the responder, the routes and
// settings its steps read, and the only ways it is answered. The exchange, its routes and its settings
// refer to one another (a route's step takes the exchange), so they are declared in this one file.
import type { Created, CreatePlantOptions } from '../domain/create-plant.ts';
import type { Failure, Result } from '../domain/failure.ts';
import type { Thenable } from '../domain/is-thenable.ts';
import type { PlantStore } from '../domain/plant-store.ts';
import { adoptThenable } from './adopt-thenable.ts';
import type { Authenticate } from './authenticate.ts';
import { errorResponse, JSON_HEADERS } from './error-response.ts';
import type { PlantRequest, PlantResponse } from './http-types.ts';
import { PendingBody } from './pending-body.ts';

/** Where an unexpected error was caught, for logs. */
export interface ErrorContext {
  readonly request: PlantRequest;
  /** The failure the client was answered with (`storage-full` when the store said what filled up). */
  readonly kind: 'internal' | 'storage-unavailable' | 'storage-full';
  /** The request's id, sent back as `x-request-id`; only with the `requestId` option. */
  readonly requestId?: string;
  /** The trace of the request's server span; only with the `tracer` option. */
  readonly traceId?: string;
}

/** A path the handler serves, the method it allows there (`GET` with its HEAD), and the step that answers it. */
export interface Route {
  /** What metrics and tests call it (`plants` for the create). */
  readonly name: string;
  /** Its path after the base path as `http.route` gives it in metrics and spans (`/docs/{file}`). */
  readonly template: string;
  readonly allow: 'GET' | 'POST';
  /** Answers the request once its method is allowed (answer-route.ts). */
  readonly answer: (exchange: PlantExchange) => Outcome;
  /** Answered while the server drains: a process finishing its requests is still alive, and a scrape sees it drain. */
  readonly whileDraining?: true;
  /** Answered alike whatever the method, and so with no CORS preflight of its own (a docs file that does not exist). */
  readonly anyMethod?: true;
  /** Never refused as overloaded: a busy process must still answer its probes and its scrapes. */
  readonly pastOverload?: true;
}

/** The route of a normalised request path, or undefined for a path the handler does not serve. */
export type FindRoute = (path: string) => Route | undefined;

/**
 * What a watching feature (metrics, a tracer, the overload gate's place)
 * keeps of one request from its arrival, told what happens to it.
 */
export interface Watch {
  /** The trace of the request's server span, from a tracer that started one. */
  readonly traceId: string | undefined;
  /** The store is called now. */
  storeStarted(): void;
  /** The store answered, or failed, with `created`. */
  storeEnded(created: Result<Created>): void;
  /** The request is answered with `response`. */
  answered(response: PlantResponse): void;
}

/**
 * The enabled features' parts that run per request, resolved once into plain
 * arrays (exchange/feature.ts); a handler with none has none of these at all.
 */
export interface RequestHooks {
  /** Begin watching each request. */
  readonly watch: readonly ((request: PlantRequest, route: Route | undefined, requestId: string | undefined) => Watch)[];
  /** The answer to a preflight, or undefined when the request is none; its answer carries its own headers. */
  readonly preflight: readonly ((request: PlantRequest, route: Route | undefined) => PlantResponse | undefined)[];
  /** Headers every other answer to the request gets. */
  readonly headers: readonly ((request: PlantRequest) => Readonly<Record<string, string>> | undefined)[];
  /** Admission before any step: undefined when not its concern, a refusal to answer with, or the Watch that gives the place back. */
  readonly admit: readonly ((request: PlantRequest, route: Route | undefined) => PlantResponse | Watch | undefined)[];
  /** Once a create's token is accepted, before its body is read: a refusal, or undefined. */
  readonly accepted: readonly ((token: string) => PlantResponse | undefined)[];
}

/** What the steps of a request read: one handler's options, checked once, with what is built from them. */
export interface ExchangeSettings {
  readonly store: PlantStore;
  readonly authenticate: Authenticate;
  readonly createOptions: CreatePlantOptions;
  /** The largest body taken, and the 413 (1400) that names it. */
  readonly body: { readonly maxBytes: number; readonly tooLarge: PlantResponse };
  readonly onError: (error: unknown, context: ErrorContext) => void;
  /** Whether each request gets an id (`x-request-id`). */
  readonly requestIds: boolean;
  readonly findRoute: FindRoute;
  /** The features' parts per request; undefined when no feature has any. */
  readonly hooks: RequestHooks | undefined;
}

/**
 * Receives the answer to one request: called exactly once, at once when the
 * answer is at hand, else when it is. It must not throw.
 *
 * `requestId` is the id the core chose for the request, the one its
 * `x-request-id` header carries (with the `requestId` option; else
 * undefined): an adapter hands it on to its host (an access log) as it is,
 * so no host has to decide the id before the core or read it back out of
 * the written answer. `traceId` is the trace of the request's server span,
 * with the `tracer` option (a new trace when the request carried no valid
 * `traceparent`); else undefined.
 */
export type Respond = (response: PlantResponse, requestId?: string, traceId?: string) => void;

declare const arranged: unique symbol;

/**
 * What a step returns when the answer is not at hand yet. Only
 * {@link answerAfter} makes one, and only by arranging the answer, so a step
 * that returns neither a response nor this fails to compile (a request left
 * hanging). A step has no way to answer but to return: the exchange keeps
 * `respond` out of its reach, and a second answer is dropped and reported.
 */
export interface Later {
  readonly [arranged]: true;
}

/** What a step of the request path gives: the answer, or {@link Later} when it has arranged one. */
export type Outcome = PlantResponse | Later;

/** A step that goes on with a value waited for; module-level, so a wait costs no closure of its own. */
export type Step<T> = (exchange: PlantExchange, value: T) => Outcome;

// The one Later there is: steps only compare it, never read it.
const LATER = Object.freeze({}) as Later;
const RESPOND = Symbol('respond');
const NEXT = Symbol('next');
const STATE = Symbol('state');
const INTERNAL = errorResponse('internal', 'internal error');
const JSON_CONTENT_TYPE = JSON_HEADERS['content-type']!;

/** Where an exchange stands: built, running its steps, or answered. */
type State = 'new' | 'running' | 'answered';

/** One request on its way through the steps: what each of them reads, and where its answer goes. */
export class PlantExchange {
  // All set in the constructor, in one place.
  declare readonly settings: ExchangeSettings;
  declare readonly request: PlantRequest;
  /** The route of the request's path; undefined for a path the handler does not serve. */
  declare readonly route: Route | undefined;
  /** The request's id, sent back as `x-request-id`; only with the `requestId` option. */
  declare readonly requestId: string | undefined;
  /** Headers every answer to this request gets (CORS), beside those of the answer itself. */
  declare readonly headers: Readonly<Record<string, string>> | undefined;
  /** What the watching features keep of the request, with any of them; else undefined. */
  declare readonly watch: Watch | undefined;
  // Keyed by symbols this module keeps, so that no step can reach them.
  /** Where the answer goes. */
  declare readonly [RESPOND]: Respond;
  /** The step waiting for a value, while one is. */
  declare [NEXT]: Step<never> | undefined;
  declare [STATE]: State;

  /** The exchange of one request, to be answered by {@link answer}; `respond` receives its answer. */
  constructor(
    settings: ExchangeSettings,
    request: PlantRequest,
    route: Route | undefined,
    requestId: string | undefined,
    headers: Readonly<Record<string, string>> | undefined,
    watch: Watch | undefined,
    respond: Respond,
  ) {
    this.settings = settings;
    this.request = request;
    this.route = route;
    this.requestId = requestId;
    this.headers = headers;
    this[RESPOND] = respond;
    this[NEXT] = undefined;
    this[STATE] = 'new';
    this.watch = watch;
  }
}

/**
 * Answers the exchange with `first`, or with what `first` returns for it: at
 * once when that is a response, which `respond` then gets before this
 * returns; else when the {@link Later} it returned arranged. A throw becomes
 * the client's bare 500. An exchange is answered this way once: a second
 * call is reported and does nothing.
 *
 * @example
 * answer(new PlantExchange(settings, request, route, requestId, undefined, undefined, respond), answerRoute);
 */
export function answer(exchange: PlantExchange, first: ((exchange: PlantExchange) => Outcome) | PlantResponse): void {
  if (exchange[STATE] !== 'new') {
    report(exchange, new Error('plant-store: an exchange was started twice'), 'internal');
    return;
  }
  exchange[STATE] = 'running';
  let outcome: Outcome;
  if (typeof first !== 'function') outcome = first;
  else {
    try {
      outcome = first(exchange);
    } catch (error) {
      outcome = internalError(exchange, error);
    }
  }
  if (isLater(outcome) || answeredAgain(exchange)) return;
  // Not guarded: an adapter's respond that throws here throws to the adapter, as its own code would.
  deliver(exchange, outcome);
}

/**
 * Goes on with `step` once `waited` settles, and answers with its outcome, or
 * with the 500 that a throw or a rejection becomes. This is the only way to
 * obtain a {@link Later}: a step returns it to say the answer is arranged.
 *
 * @example
 * return answerAfter(exchange, request.readBody(maxBodyBytes), createFromBody);
 */
export function answerAfter<T>(exchange: PlantExchange, waited: Thenable<T>, step: Step<T>): Later {
  exchange[NEXT] = step as Step<never>;
  // An adapter's body reading calls back once and never fails: it needs none of adoptThenable's guards, nor
  // their two closures, which saves 40 to 100 ns per create (Bun, Node 20; 4 runs of 24 interleaved batches).
  if (waited instanceof PendingBody) waited.thenWith(exchange, goOn);
  else adoptThenable(waited, exchange, goOn, failed);
  return LATER;
}

/**
 * The answer to a failure with its `cause` handed to `onError`, labelled with
 * the failure's own kind (the store's `storage-unavailable` or
 * `storage-full`). A cause on any other kind is none the core expects, so it
 * is labelled `internal`.
 */
export function reportFailure(exchange: PlantExchange, failure: Failure, headers?: Readonly<Record<string, string>>): PlantResponse {
  if (failure.cause !== undefined) {
    const kind = failure.kind === 'storage-unavailable' || failure.kind === 'storage-full' ? failure.kind : 'internal';
    report(exchange, failure.cause, kind);
  }
  return errorResponse(failure.kind, failure.message, headers);
}

/** An unexpected throw or rejection, handed to `onError`, as the client's bare 500: the one place such errors become answers. */
export function internalError(exchange: PlantExchange, error: unknown): PlantResponse {
  report(exchange, error, 'internal');
  return INTERNAL;
}

function isLater(outcome: Outcome): outcome is Later {
  return outcome === LATER;
}

function goOn(exchange: PlantExchange, value: unknown): void {
  const step = exchange[NEXT] as Step<unknown>;
  exchange[NEXT] = undefined;
  let outcome: Outcome;
  try {
    outcome = step(exchange, value);
  } catch (error) {
    outcome = internalError(exchange, error);
  }
  if (!isLater(outcome)) answerLate(exchange, outcome);
}

function failed(exchange: PlantExchange, error: unknown): void {
  exchange[NEXT] = undefined;
  answerLate(exchange, internalError(exchange, error));
}

/**
 * Hands a waited answer to `respond`, which must not throw; if it does, the
 * error goes to `onError` rather than into the runtime callback that ended
 * the wait (Node's 'end' listener, say), where it would crash the process.
 */
function answerLate(exchange: PlantExchange, response: PlantResponse): void {
  if (answeredAgain(exchange)) return;
  try {
    deliver(exchange, response);
  } catch (error) {
    report(exchange, error, 'internal');
  }
}

/**
 * The one place an exchange's answer leaves: told to the watching features
 * (metrics, span, the overload gate's place), then handed to `respond` with
 * the exchange's headers, request id and trace id.
 */
function deliver(exchange: PlantExchange, response: PlantResponse): void {
  const { watch } = exchange;
  watch?.answered(response);
  exchange[RESPOND](withHeaders(response, exchange.headers, exchange.requestId), exchange.requestId, watch?.traceId);
}

/**
 * Marks the exchange answered, and says whether it was already: a step that
 * arranged an answer and returned another anyway is a fault of the core,
 * reported, and its second answer is dropped.
 */
function answeredAgain(exchange: PlantExchange): boolean {
  if (exchange[STATE] !== 'answered') {
    exchange[STATE] = 'answered';
    return false;
  }
  report(exchange, new Error('plant-store: a second answer to one request was dropped'), 'internal');
  return true;
}

function report(exchange: PlantExchange, error: unknown, kind: ErrorContext['kind']): void {
  const { request, requestId } = exchange;
  const traceId = exchange.watch?.traceId;
  try {
    const context: ErrorContext = requestId === undefined ? { request, kind } : { request, kind, requestId };
    exchange.settings.onError(error, traceId === undefined ? context : { ...context, traceId });
  } catch {
    // A failing logger must not turn an answer into a crash.
  }
}

/**
 * `response` with `extra` headers and an `x-request-id`, in a new headers
 * object: the shared answers are never changed, and without the features
 * they are sent as they are.
 */
function withHeaders(response: PlantResponse, extra: Readonly<Record<string, string>> | undefined, requestId: string | undefined): PlantResponse {
  if (extra === undefined && requestId === undefined) return response;
  const own = response.headers;
  let headers: Record<string, string>;
  if (own === JSON_HEADERS && extra === undefined) {
    // The created plant's answer, with its request id: one literal of a fixed
    // shape, 15 to 40 ns less than the loops below on Node 20 and 24, Bun and Deno.
    headers = { 'content-type': JSON_CONTENT_TYPE, 'x-request-id': requestId! };
  } else {
    // Copied by loops and a literal rather than object spread, which costs
    // Node 20 twenty times as much on every request.
    headers = {};
    for (const name in own) headers[name] = own[name]!;
    if (extra !== undefined) for (const name in extra) headers[name] = extra[name]!;
    if (requestId !== undefined) headers['x-request-id'] = requestId;
  }
  const { status, body, bytes, error } = response;
  // A docs answer's shared bytes go on with it, so that no answer of the file is encoded again.
  if (bytes !== undefined) return response.unmatched === true ? { status, headers, body, bytes, unmatched: true } : { status, headers, body, bytes };
  if (error !== undefined) return response.unmatched === true ? { status, headers, body, error, unmatched: true } : { status, headers, body, error };
  return response.unmatched === true ? { status, headers, body, unmatched: true } : { status, headers, body };
}
