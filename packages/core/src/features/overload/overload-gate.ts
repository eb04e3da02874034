// Runs anywhere (plain data, and the timers and monotonic clock every runtime has): whether a request is admitted under load.
import { errorResponse } from '../../exchange/error-response.ts';
import type { PlantResponse } from '../../exchange/http-types.ts';

/** Default {@link OverloadOptions.maxInFlight}. */
export const DEFAULT_MAX_IN_FLIGHT = 256;
/** Default {@link OverloadOptions.maxEventLoopDelayMs}. */
export const DEFAULT_MAX_EVENT_LOOP_DELAY_MS = 1_000;
/** Default {@link OverloadOptions.retryAfterSeconds}. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** Default {@link OverloadOptions.sampleIntervalMs}. */
export const DEFAULT_SAMPLE_INTERVAL_MS = 20;

/** Bounds past which a handler answers new requests 503 (1503) with `Retry-After` at once. */
export interface OverloadOptions {
  /**
   * Requests one gate holds at once, from their arrival to their answer;
   * another one is refused. `0` turns this bound off. Default 256.
   */
  readonly maxInFlight?: number | undefined;
  /**
   * Event-loop delay tolerated, in ms: while the last sample is later than
   * this, new requests are refused. `0` turns this bound off. Default 1000.
   */
  readonly maxEventLoopDelayMs?: number | undefined;
  /** The `Retry-After` of a refusal, in seconds, 1 or more. Default 1. */
  readonly retryAfterSeconds?: number | undefined;
  /** How often the event loop is sampled while requests arrive, in ms, 1 or more. Default 20. */
  readonly sampleIntervalMs?: number | undefined;
}

/**
 * The admission decision of one process (or of the handlers that share it):
 * how many requests are in flight, how late the event loop last was, and the
 * refusal past either bound. The event loop is sampled by one timer that runs
 * only while requests arrive or are in flight, and stops in the first idle
 * interval, so an idle process keeps no timer and a busy one pays one per
 * interval, none per request. Each sample is how much later than asked the
 * timer ran: time the loop spent on other work (a timer sampler, so it works
 * on every runtime; inside a workerd request, where time stands still, it
 * reads 0).
 */
export class OverloadGate {
  /** Requests admitted and not yet answered. */
  inFlight = 0;
  /** The last event-loop delay sample, in ms; 0 while idle. */
  delayMs = 0;
  /** The answer to a request past a bound: 503 (1503) with `Retry-After`. */
  readonly refusal: PlantResponse;
  readonly #maxInFlight: number;
  readonly #maxDelayMs: number;
  readonly #intervalMs: number;
  #arrivals = 0;
  #sampling = false;
  #expectedAt = 0;
  readonly #tick = () => this.#sample();

  /** Use {@link createOverloadGate}, which checks the options. */
  constructor(maxInFlight: number, maxDelayMs: number, retryAfterSeconds: number, intervalMs: number) {
    this.#maxInFlight = maxInFlight === 0 ? Infinity : maxInFlight;
    this.#maxDelayMs = maxDelayMs === 0 ? Infinity : maxDelayMs;
    this.#intervalMs = intervalMs;
    this.refusal = errorResponse('overloaded', `the server is busy; retry in ${retryAfterSeconds} s`, { 'retry-after': String(retryAfterSeconds) });
  }

  /**
   * Admits a request and counts it in flight (undefined), or gives the
   * refusal and counts nothing. Every admitted request must {@link leave}.
   */
  enter(): PlantResponse | undefined {
    this.#arrivals++;
    if (!this.#sampling && this.#maxDelayMs !== Infinity) this.#startSampling();
    if (this.busy()) return this.refusal;
    this.inFlight++;
    return undefined;
  }

  /** Whether either bound is set: with both 0 the gate admits everything and need not be asked. */
  get bounded(): boolean {
    return this.#maxInFlight !== Infinity || this.#maxDelayMs !== Infinity;
  }

  /** An admitted request was answered. */
  leave(): void {
    this.inFlight--;
  }

  /** Whether a request arriving now would be refused. */
  busy(): boolean {
    return this.inFlight >= this.#maxInFlight || this.delayMs > this.#maxDelayMs;
  }

  #startSampling(): void {
    this.#sampling = true;
    this.#schedule();
  }

  #schedule(): void {
    this.#expectedAt = performance.now() + this.#intervalMs;
    const handle = setTimeout(this.#tick, this.#intervalMs) as { unref?: () => void } | number;
    // Node's and Bun's timers: the sampler alone must not keep a process alive.
    if (typeof handle === 'object') handle.unref?.();
  }

  #sample(): void {
    const late = performance.now() - this.#expectedAt;
    this.delayMs = late > 0 ? late : 0;
    if (this.#arrivals === 0 && this.inFlight === 0) {
      // Idle for a whole interval: nothing to protect, so nothing to sample.
      this.#sampling = false;
      this.delayMs = 0;
      return;
    }
    this.#arrivals = 0;
    this.#schedule();
  }
}

/**
 * Builds the {@link OverloadGate} of the `overload` option; pass one gate to
 * several handlers of one process to bound them together, since they share
 * its event loop.
 *
 * @param caller The function the user called, which option errors name.
 * @throws TypeError for an option out of range.
 * @example
 * const gate = createOverloadGate({ maxInFlight: 128, maxEventLoopDelayMs: 50 });
 * const handler = createPlantHandler({ store, authenticate, overload: gate });
 */
export function createOverloadGate(options: OverloadOptions = {}, caller = 'createOverloadGate'): OverloadGate {
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const maxDelayMs = options.maxEventLoopDelayMs ?? DEFAULT_MAX_EVENT_LOOP_DELAY_MS;
  const retryAfter = options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
  const interval = options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
  check(caller, 'maxInFlight', maxInFlight, 0);
  check(caller, 'maxEventLoopDelayMs', maxDelayMs, 0);
  check(caller, 'retryAfterSeconds', retryAfter, 1);
  check(caller, 'sampleIntervalMs', interval, 1);
  return new OverloadGate(maxInFlight, maxDelayMs, retryAfter, interval);
}

function check(caller: string, name: string, value: unknown, least: number): void {
  if (!Number.isSafeInteger(value) || (value as number) < least) {
    throw new TypeError(`${caller}: \`overload.${name}\` must be an integer of at least ${least}`);
  }
}
