// Runs wherever the client runs: browsers, Node 20+, Bun, Deno and Workers (fetch, AbortController and timers only).
import { answerByteLimit } from './answer-byte-limit.ts';
import { backoffDelay } from './backoff-delay.ts';
import { ErrorCode } from './error-code.ts';
import { parseRetryAfter } from './parse-retry-after.ts';
import type { NewPlant, Plant } from './plant.ts';
import { PlantStoreError } from './plant-store-error.ts';
import { raceAbort } from './race-abort.ts';
import { readAnswer } from './read-answer.ts';
import { readBoundedText } from './read-bounded-text.ts';
import { stringifyNewPlant } from './stringify-new-plant.ts';

/** The part of `fetch` the client uses; the runtime's own `fetch` fits. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Information handed to {@link RetryOptions.onRetry} before each wait. */
export interface RetryInfo {
  /** The attempt that failed, 1 for the first request. */
  readonly attempt: number;
  /** Why it failed. */
  readonly error: PlantStoreError;
  /** How long the client waits before the next request. */
  readonly delayMs: number;
}

/**
 * When and how often a create is sent again. Only failures that say nothing
 * about the plant are retried: no answer (network, timeout), 408, 429, 502,
 * 503 and 504. Retrying is safe because a create is idempotent per id: a
 * retry of a create that was stored answers 200 with the same plant.
 */
export interface RetryOptions {
  /** Most requests per create, the first included. Default 5. */
  readonly attempts?: number;
  /** Backoff before the first retry, doubled for each next one, with jitter. Default 100 ms. */
  readonly initialDelayMs?: number;
  /** Most backoff between two requests. Default 5,000 ms. A `Retry-After` the server sends is followed instead, if it fits in `maxElapsedMs`. */
  readonly maxDelayMs?: number;
  /** Most time for the whole create: every attempt and every wait. Default 30,000 ms. */
  readonly maxElapsedMs?: number;
  /** Called before each wait, to log retries. */
  readonly onRetry?: (info: RetryInfo) => void;
}

/** Options of {@link createPlantClient}. */
export interface PlantClientOptions {
  /** Where the service is mounted; `/plants` is appended: `https://api.example.com/v1` → `https://api.example.com/v1/plants`. */
  readonly baseUrl: string | URL;
  /** The bearer token, sent as `Authorization: Bearer <token>` (RFC 6750 `b64token` syntax). */
  readonly token: string;
  /** The `fetch` to use. Default: the runtime's global `fetch`, looked up at each call. */
  readonly fetch?: FetchLike | undefined;
  /** Retry policy, or `false` to send each create once. Default: see {@link RetryOptions}. */
  readonly retry?: RetryOptions | false | undefined;
  /** Longest wait for one attempt's whole answer, body included; past it the attempt fails with `timeout` and is retried. Default 10,000 ms. */
  readonly timeoutMs?: number | undefined;
}

/** Options of one create. */
export interface CreatePlantOptions {
  /** Aborts the create, its retries and waits included; the call then fails with `aborted` and is not retried. */
  readonly signal?: AbortSignal | undefined;
}

/** The outcome of {@link PlantClient.tryCreatePlant}: the plant, or the error, as a value. */
export type CreatePlantResult = { readonly ok: true; readonly value: Plant } | { readonly ok: false; readonly error: PlantStoreError };

/** A client of one Plant Store service. */
export interface PlantClient {
  /**
   * Creates a plant, retrying as configured, and resolves with the Plant the
   * server stored: on a first create and on a replay of the same create alike.
   * Rejects with a {@link PlantStoreError} otherwise.
   */
  createPlant(plant: NewPlant, options?: CreatePlantOptions): Promise<Plant>;
  /** The same create, with every failure as a value: it rejects only if `onRetry` throws. */
  tryCreatePlant(plant: NewPlant, options?: CreatePlantOptions): Promise<CreatePlantResult>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRY = { attempts: 5, initialDelayMs: 100, maxDelayMs: 5_000, maxElapsedMs: 30_000 } as const;
/** RFC 6750 §2.1: what a bearer token may hold, so that a bad token fails here rather than as a header error inside `fetch`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days): a longer one fires at once on Node, Bun and Deno. */
const MAX_TIMER_MS = 2_147_483_647;

function positive(name: string, value: number | undefined, fallback: number, integer = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new TypeError(`createPlantClient: ${name} must be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}`);
  }
  if (name.endsWith('Ms') && value > MAX_TIMER_MS) {
    throw new TypeError(`createPlantClient: ${name} must be at most ${MAX_TIMER_MS} (about 24.8 days, the longest a timer waits), got ${String(value)}`);
  }
  return value;
}

function plantsUrl(baseUrl: string | URL): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // Not the runtime's error: Deno's message and Node's and Bun's `input` repeat the text, a password included.
    throw new TypeError('createPlantClient: baseUrl must be an absolute http: or https: URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`createPlantClient: baseUrl must be http: or https:, got ${url.protocol}`);
  // Runtimes differ on such a URL (Node's fetch refuses it, Bun drops the pair, Deno sends it as Basic instead of the
  // token), and every message naming the URL would carry the password.
  if (url.username !== '' || url.password !== '') throw new TypeError('createPlantClient: baseUrl must hold no user or password: the token is the credential');
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/plants`;
  return url.href;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function aborted(signal: AbortSignal, attempts: number): PlantStoreError {
  return new PlantStoreError({ code: ErrorCode.Aborted, attempts, message: 'the create was aborted by its signal', cause: signal.reason });
}

/** What one request carries: its body, and the name and tag a 200 must give back. */
interface Sent {
  readonly body: string;
  readonly plant: Pick<NewPlant, 'name' | 'tag'>;
  /** {@link answerByteLimit} of `body`. */
  readonly maxAnswerBytes: number;
}

/** One answer, or the failure that stood for it, and the server's wish about the next try. */
interface Outcome {
  readonly result: Plant | PlantStoreError;
  readonly retryAfter: string | null;
}

/**
 * A client for `POST {baseUrl}/plants` with exact int64 ids, safe retries and
 * timeouts, on any runtime with `fetch` (browsers, Node 20+, Bun, Deno,
 * Workers). Bad options throw a `TypeError` here, at once.
 *
 * @example
 * const client = createPlantClient({ baseUrl: 'http://127.0.0.1:8080', token: 's3cret-token' });
 * const plant = await client.createPlant({ id: 9223372036854775807n, name: 'Monstera' });
 */
export function createPlantClient(options: PlantClientOptions): PlantClient {
  const url = plantsUrl(options.baseUrl);
  if (typeof options.token !== 'string' || !B64TOKEN.test(options.token)) {
    throw new TypeError('createPlantClient: token must be a non-empty bearer token (letters, digits and - . _ ~ + /, then any =)');
  }
  const authorization = `Bearer ${options.token}`;
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = positive('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const retry: RetryOptions = options.retry === false ? { attempts: 1 } : (options.retry ?? {});
  const attempts = positive('retry.attempts', retry.attempts, DEFAULT_RETRY.attempts, true);
  const initialDelayMs = positive('retry.initialDelayMs', retry.initialDelayMs, DEFAULT_RETRY.initialDelayMs);
  const maxDelayMs = positive('retry.maxDelayMs', retry.maxDelayMs, DEFAULT_RETRY.maxDelayMs);
  // Sent once, a create is bounded by its one attempt's timeout alone.
  const maxElapsedMs = options.retry === false ? timeoutMs : positive('retry.maxElapsedMs', retry.maxElapsedMs, DEFAULT_RETRY.maxElapsedMs);
  const onRetry = options.retry === false ? undefined : options.retry?.onRetry;

  /** The error of an answer that is a redirect, or of one the given `fetch` reached by following one; else undefined. */
  function redirected(response: Response, attempt: number): PlantStoreError | undefined {
    const init = { code: ErrorCode.Redirected, attempts: attempt, requestId: response.headers.get('x-request-id') ?? undefined };
    // A browser answers `redirect: 'manual'` with an opaque redirect: status 0, no headers, the target hidden.
    if (response.type === 'opaqueredirect') {
      return new PlantStoreError({ ...init, message: `${url} answered with a redirect (opaque: the browser hides its status and target), not followed` });
    }
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      return new PlantStoreError({
        ...init,
        status: response.status,
        message: `${url} answered ${response.status}${location === null ? '' : ` to ${location}`}, not followed: a create is sent nowhere but ${url}`,
      });
    }
    // Only a `fetch` option that ignores `redirect: 'manual'` gets here; what it brings back is another server's answer.
    if (response.redirected) {
      return new PlantStoreError({
        ...init,
        status: response.status,
        message: `the fetch option followed a redirect from ${url}${response.url === '' ? '' : ` to ${response.url}`}; its answer is not trusted`,
      });
    }
    return undefined;
  }

  /**
   * Sends the body once, waiting at most `limitMs` for the whole answer. An
   * attempt cut short by `maxElapsedMs` that times out keeps the failure
   * before it as its `cause`, which says more about the service than the clock.
   */
  async function send(sent: Sent, attempt: number, limitMs: number, signal: AbortSignal | undefined, previous: PlantStoreError | undefined): Promise<Outcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer within ${limitMs} ms`));
    }, limitMs);
    const forward = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    try {
      // Raced against the signal too: a `fetch` option that does not pass it on would otherwise wait past both.
      const response = await raceAbort(
        fetchImpl(url, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
          body: sent.body,
          // Following would send the plant, and the token, wherever a Location points, and take that server's word for it.
          redirect: 'manual',
          signal: controller.signal,
        }),
        controller.signal,
        // A late answer's body is cancelled, so that its connection is let go.
        (late) => void late.body?.cancel().catch(() => {}),
      );
      const requestId = response.headers.get('x-request-id') ?? undefined;
      const redirect = redirected(response, attempt);
      if (redirect !== undefined) {
        response.body?.cancel().catch(() => {});
        return { result: redirect, retryAfter: null };
      }
      // The timer covers the body too: an answer whose body stalls is as lost as one that never came.
      const read = await readBoundedText(response, sent.maxAnswerBytes, controller.signal);
      if (!read.ok) {
        const result = new PlantStoreError({
          code: ErrorCode.AnswerTooLarge,
          status: response.status,
          attempts: attempt,
          requestId,
          message: `${url} answered ${response.status} with ${read.declared ? `a Content-Length of ${read.bytes} bytes` : `more than ${sent.maxAnswerBytes} bytes`}, past the ${sent.maxAnswerBytes} bytes the client reads for this create; not read further`,
        });
        return { result, retryAfter: null };
      }
      return {
        result: readAnswer(response.status, read.text, attempt, requestId, sent.plant),
        retryAfter: response.headers.get('retry-after'),
      };
    } catch (error) {
      if (signal?.aborted) return { result: aborted(signal, attempt), retryAfter: null };
      const result = timedOut
        ? new PlantStoreError({
            code: ErrorCode.Timeout,
            retryable: true,
            attempts: attempt,
            message: `no complete answer from ${url} within ${limitMs} ms${limitMs < timeoutMs ? ` (what was left of maxElapsedMs, ${maxElapsedMs} ms)` : ''}`,
            cause: limitMs < timeoutMs ? previous : undefined,
          })
        : new PlantStoreError({
            code: ErrorCode.Network,
            retryable: true,
            attempts: attempt,
            message: `no answer from ${url}: ${error instanceof Error ? error.message : String(error)}`,
            cause: error,
          });
      return { result, retryAfter: null };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  async function tryCreatePlant(plant: NewPlant, createOptions: CreatePlantOptions = {}): Promise<CreatePlantResult> {
    const { signal } = createOptions;
    // Each field read once: a getter could answer otherwise the second time, and a 200 is checked against what was sent.
    const snapshot: NewPlant = typeof plant === 'object' && plant !== null ? { id: plant.id, name: plant.name, tag: plant.tag } : plant;
    const body = stringifyNewPlant(snapshot);
    if (body instanceof PlantStoreError) return { ok: false, error: body };
    const sent: Sent = { body, plant: { name: snapshot.name, tag: snapshot.tag }, maxAnswerBytes: answerByteLimit(body) };
    if (signal?.aborted) return { ok: false, error: aborted(signal, 0) };
    const deadline = Date.now() + maxElapsedMs;
    let previous: PlantStoreError | undefined;
    for (let attempt = 1; ; attempt++) {
      const limitMs = Math.min(timeoutMs, Math.max(1, deadline - Date.now()));
      const { result, retryAfter } = await send(sent, attempt, limitMs, signal, previous);
      if (!(result instanceof PlantStoreError)) return { ok: true, value: result };
      if (!result.retryable || attempt >= attempts) return { ok: false, error: result };
      // The server's Retry-After is followed as given; one that would outlast the budget ends the create now instead.
      const delayMs = parseRetryAfter(retryAfter) ?? backoffDelay(attempt, initialDelayMs, maxDelayMs);
      if (Date.now() + delayMs >= deadline) return { ok: false, error: result };
      previous = result;
      onRetry?.({ attempt, error: result, delayMs });
      await sleep(delayMs, signal);
      if (signal?.aborted) return { ok: false, error: aborted(signal, attempt) };
    }
  }

  return {
    tryCreatePlant,
    async createPlant(plant, createOptions) {
      const outcome = await tryCreatePlant(plant, createOptions);
      if (outcome.ok) return outcome.value;
      throw outcome.error;
    },
  };
}
