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
