import type { FetchContext, FetchHandler, RequestDeadline } from '@plant-store/adapter-fetch';
import { SHUTDOWN_TIMINGS } from '../shared/shutdown-timings.ts';

/** A Fetch handler that can be drained for a graceful stop. */
export interface DrainingFetch {
  readonly fetch: FetchHandler;
  /**
   * From now on hands new requests to the core as draining (503, code 1501)
   * and closes their connections,
   * and resolves once `graceMs` have passed and the requests in flight are
   * done, or after `timeoutMs` whatever is in flight.
   */
  drain(graceMs: number, timeoutMs: number): Promise<void>;
  /**
   * A signal listener for a graceful stop, which acts once: drain (with the
   * grace and limit of {@link SHUTDOWN_TIMINGS}), then `close` the server, then `exit`.
   */
  stopper(close: () => Promise<unknown>, exit: () => void): () => void;
}

/** Options of {@link createDrainingFetch}. */
export interface DrainingFetchOptions {
  /**
   * Resolves once no request is in flight, for a handler that keeps that
   * count already (as {@link withRequestDeadline}'s does): the drain then
   * waits on it instead of counting every request a second time.
   */
  readonly whenIdle?: () => Promise<void>;
}

/**
 * Wraps a standalone server's handler so that a stop finishes what is in
 * flight while requests still arriving on kept-alive connections are told
 * (by the core, as draining) to go elsewhere, rather than being processed or
 * cut off mid-way.
 */
export function createDrainingFetch(handler: FetchHandler, options: DrainingFetchOptions = {}): DrainingFetch {
  const { whenIdle } = options;
  let inFlight = 0;
  let draining = false;
  let onIdle = () => {};
  const pass: FetchHandler = (request, context) => {
    inFlight++;
    // Not `finally`, which costs two more turns per request.
    return handler(request, context).then(
      (response) => {
        if (--inFlight === 0) onIdle();
        return response;
      },
      (error: unknown) => {
        if (--inFlight === 0) onIdle();
        throw error;
      },
    );
  };
  const serving = whenIdle === undefined ? pass : handler;
  return {
    fetch(request, context) {
      if (!draining) return serving(request, context);
      // The core decides the answer (503 on its routes); the connection is this server's to close.
      return serving(request, drainingContext(context)).then((response) => {
        response.headers.set('connection', 'close');
        return response;
      });
    },
    drain(graceMs, timeoutMs) {
      draining = true;
      // The grace lets clients about to send on a kept-alive connection hear
      // 503 rather than meet a connection cut under them.
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs));
      const idle =
        whenIdle?.() ??
        new Promise<void>((resolve) => {
          onIdle = resolve;
          if (inFlight === 0) resolve();
        });
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs));
      return Promise.race([Promise.all([grace, idle]).then(() => {}), deadline]);
    },
    stopper(close, exit) {
      let stopping = false;
      return () => {
        if (stopping) return;
        stopping = true;
        void this.drain(SHUTDOWN_TIMINGS.graceMs, SHUTDOWN_TIMINGS.timeoutMs).then(close).then(exit);
      };
    },
  };
}

/**
 * `context` marked as draining. Not a spread: a context may keep `deadline`
 * and `waitUntil` on its prototype (as {@link withRequestDeadline}'s do).
 */
function drainingContext(context: FetchContext | undefined): FetchContext {
  if (context === undefined) return { draining: true };
  const { deadline } = context;
  const waitUntil = context.waitUntil === undefined ? undefined : (promise: Promise<unknown>) => context.waitUntil!(promise);
  return { draining: true, ...(deadline === undefined ? {} : { deadline }), ...(waitUntil === undefined ? {} : { waitUntil }) };
}

/** A handler under {@link withRequestDeadline}, which knows what it has in flight. */
export type DeadlineFetch = FetchHandler & {
  /** Resolves once every request is answered and every unread body it was dropping is dropped. */
  whenIdle(): Promise<void>;
};

/** Options of {@link withRequestDeadline}. */
export interface RequestDeadlineOptions {
  /** Most time from the handler's call to the whole body received. Default 30 s, as on Node. */
  readonly timeoutMs?: number;
  /** How often the deadlines are checked. Default 500 ms, as on Node. */
  readonly checkEveryMs?: number;
}

/**
 * One request in flight under {@link withRequestDeadline}: the context the
 * handler gets, and its deadline. One plain object per request, with no
 * closures, timers or event targets of its own.
 */
class PendingRequest implements FetchContext, RequestDeadline {
  passed = false;
  /** The background drop of an unread body, handed to `waitUntil`. */
  discarding: Promise<unknown> | undefined = undefined;
  readonly draining: boolean;
  private onPass: (() => void) | undefined = undefined;

  constructor(
    readonly expires: number,
    private readonly outer: FetchContext | undefined,
  ) {
    this.draining = outer?.draining === true;
  }

  get deadline(): RequestDeadline {
    return this;
  }

  watch(onPass: (() => void) | undefined): void {
    this.onPass = onPass;
    if (this.passed) this.pass();
  }

  waitUntil(promise: Promise<unknown>): void {
    this.discarding = promise;
    this.outer?.waitUntil?.(promise);
  }

  pass(): void {
    this.passed = true;
    const onPass = this.onPass;
    this.onPass = undefined;
    onPass?.();
  }
}

/**
 * Gives a Fetch launcher (Bun, Deno) what the standalone Node server's
 * `requestTimeout` does: a body still arriving `timeoutMs` after the request
 * reached the handler is cut and answered 408 (1402) with `Connection: close`
 * (through the context's `deadline`), and the body of an answer that was sent
 * without reading it is dropped for no longer than that either.
 *
 * An answer that closes the connection (the client asked with `Connection:
 * close`, or the server drains) waits until its unread body is dropped:
 * Bun closes a connection at once after such an answer, and the bytes still
 * arriving would make the kernel reset it under the answer.
 */
export function withRequestDeadline(handler: FetchHandler, options: RequestDeadlineOptions = {}): DeadlineFetch {
  const { timeoutMs = 30_000, checkEveryMs = 500 } = options;
  // Every request from its call until its answer, and its unread body's drop, are done.
  const pending = new Set<PendingRequest>();
  let idleWaiters: (() => void)[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;
  const check = () => {
    const now = performance.now();
    for (const entry of pending) if (!entry.passed && entry.expires <= now) entry.pass();
    if (pending.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const done = (entry: PendingRequest) => {
    pending.delete(entry);
    if (pending.size > 0 || idleWaiters.length === 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };
  const guarded = (request: Request, context?: FetchContext) => {
    const entry = new PendingRequest(performance.now() + timeoutMs, context);
    pending.add(entry);
    timer ??= setInterval(check, checkEveryMs);
    let answered: Promise<Response>;
    try {
      answered = handler(request, entry);
    } catch (error) {
      done(entry);
      throw error;
    }
    return answered.then(
      (response) => {
        const discarding = entry.discarding;
        if (discarding === undefined) {
          done(entry);
          return response;
        }
        const dropped = discarding.finally(() => done(entry));
        // A draining server closes the connection after the answer, whether or not this wrapper sees it say so yet.
        if (entry.draining || closes(request.headers.get('connection')) || closes(response.headers.get('connection'))) return dropped.then(() => response);
        return response;
      },
      (error: unknown) => {
        done(entry);
        throw error;
      },
    );
  };
  const whenIdle = () => (pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve)));
  return Object.assign(guarded, { whenIdle });
}

function closes(connection: string | null): boolean {
  return connection !== null && /(?:^|,)\s*close\s*(?:,|$)/i.test(connection);
}
