// Runs on Bun (the standalone Bun launcher and its workers), and under Deno.serve in runtime-tests/hardening.test.ts:
// the request deadline Bun.serve lacks. A workaround of a runtime quirk: see QUIRKS.md beside it.
import type { FetchContext, FetchHandler, RequestDeadline } from '@plant-store/adapter-fetch';

/** A handler under {@link withRequestDeadline}, which knows what it has in flight. */
export type DeadlineFetch = FetchHandler & {
  /** Resolves once every request is answered and every unread body it was dropping is dropped. */
  whenIdle(): Promise<void>;
};

/** Options of {@link withRequestDeadline}. */
export interface RequestDeadlineOptions {
  /** Most time from the handler's call to the whole body received. Default 30 s, as on Node. */
  readonly timeoutMs?: number;
  /**
   * How late past its due time a deadline may pass at most (they are checked
   * twice as often). Default 500 ms, as on Node.
   */
  readonly checkEveryMs?: number;
  /**
   * Told each request as its answer is handed to the server, once this
   * wrapper is done with it (after an unread body that must be dropped first
   * is), for what the server does then: the standalone Bun server bounds how
   * long the answer may wait for its client there (bun/QUIRKS.md,
   * bun-no-write-timeout). It must not throw. Default: none.
   */
  readonly onAnswered?: ((request: Request) => void) | undefined;
}

/**
 * One request in flight under {@link withRequestDeadline}: the context the
 * handler gets, its deadline, and its place in the list of requests in
 * flight. One plain object per request, with no closures, timers or event
 * targets of its own.
 */
class PendingRequest implements FetchContext, RequestDeadline {
  passed = false;
  /** When the deadline passes: set by the first check after the call. */
  expires = Infinity;
  /** The background drop of an unread body, handed to `waitUntil`. */
  discarding: Promise<unknown> | undefined = undefined;
  readonly draining: boolean;
  // A request joins and leaves the list in a few writes, where a Set would hash it each time.
  previous: PendingRequest | undefined = undefined;
  next: PendingRequest | undefined = undefined;
  private onPass: (() => void) | undefined = undefined;

  constructor(private readonly outer: FetchContext | undefined) {
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
  const { timeoutMs = 30_000, checkEveryMs = 500, onAnswered } = options;
  // Every request from its call until its answer, and its unread body's drop, are done, in the order of the calls,
  // which is that of the deadlines.
  let first: PendingRequest | undefined;
  let last: PendingRequest | undefined;
  // The tail of the list called since the last check. A clock read on every call costs more than stamping, at the
  // next check, the few still in flight then; checking twice as often keeps a deadline within `checkEveryMs` of due.
  let unstamped: PendingRequest | undefined;
  let idleWaiters: (() => void)[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;
  const check = () => {
    const now = performance.now();
    // Passed after the walk: a watcher may settle its request, which may then leave the list.
    const expired: PendingRequest[] = [];
    for (let entry = first; entry !== undefined && entry.expires <= now; entry = entry.next) if (!entry.passed) expired.push(entry);
    for (let entry = unstamped; entry !== undefined; entry = entry.next) entry.expires = now + timeoutMs;
    unstamped = undefined;
    for (const entry of expired) entry.pass();
    if (first === undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const done = (entry: PendingRequest) => {
    const { previous, next } = entry;
    if (entry === unstamped) unstamped = next;
    if (previous === undefined) first = next;
    else previous.next = next;
    if (next === undefined) last = previous;
    else next.previous = previous;
    entry.previous = entry.next = undefined;
    if (first !== undefined || idleWaiters.length === 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };
  // The answer as it goes to the server, once this wrapper is done with its request (so a throw of onAnswered leaves
  // nothing in flight here), and once an unread body that must be dropped first is.
  const handOver = (request: Request, response: Response) => {
    onAnswered?.(request);
    return response;
  };
  const guarded = (request: Request, context?: FetchContext) => {
    const entry = new PendingRequest(context);
    if (last === undefined) first = entry;
    else (entry.previous = last).next = entry;
    last = entry;
    unstamped ??= entry;
    timer ??= setInterval(check, checkEveryMs / 2);
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
          return handOver(request, response);
        }
        const dropped = discarding.finally(() => done(entry));
        // A draining server closes the connection after the answer, whether or not this wrapper sees it say so yet.
        if (entry.draining || closes(request.headers.get('connection')) || closes(response.headers.get('connection'))) {
          return dropped.then(() => handOver(request, response));
        }
        return handOver(request, response);
      },
      (error: unknown) => {
        done(entry);
        throw error;
      },
    );
  };
  const whenIdle = () => (first === undefined ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve)));
  return Object.assign(guarded, { whenIdle });
}

function closes(connection: string | null): boolean {
  return connection !== null && /(?:^|,)\s*close\s*(?:,|$)/i.test(connection);
}
