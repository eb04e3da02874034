import type { FetchHandler } from '@plant-store/adapter-fetch';
import { SHUTDOWN_TIMINGS } from './shutdown-timings.ts';

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

/**
 * Wraps a standalone server's handler so that a stop finishes what is in
 * flight while requests still arriving on kept-alive connections are told
 * (by the core, as draining) to go elsewhere, rather than being processed or
 * cut off mid-way.
 */
export function createDrainingFetch(handler: FetchHandler): DrainingFetch {
  let inFlight = 0;
  let draining = false;
  let onIdle = () => {};
  return {
    async fetch(request, context) {
      if (draining) {
        // The core decides the answer (503 on its routes); the connection is this server's to close.
        const response = await handler(request, { ...context, draining: true });
        response.headers.set('connection', 'close');
        return response;
      }
      inFlight++;
      try {
        return await handler(request, context);
      } finally {
        if (--inFlight === 0) onIdle();
      }
    },
    drain(graceMs, timeoutMs) {
      draining = true;
      // The grace lets clients about to send on a kept-alive connection hear
      // 503 rather than meet a connection cut under them.
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs));
      const idle = new Promise<void>((resolve) => {
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

/** Options of {@link withRequestDeadline}. */
export interface RequestDeadlineOptions {
  /** Most time from the handler's call to the whole body received. Default 30 s, as on Node. */
  readonly timeoutMs?: number;
  /** How often the deadlines are checked. Default 500 ms, as on Node. */
  readonly checkEveryMs?: number;
}

interface Pending {
  readonly expires: number;
  readonly controller: AbortController;
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
export function withRequestDeadline(handler: FetchHandler, options: RequestDeadlineOptions = {}): FetchHandler {
  const { timeoutMs = 30_000, checkEveryMs = 500 } = options;
  const pending = new Set<Pending>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const check = () => {
    const now = performance.now();
    for (const entry of pending) {
      if (entry.expires > now) continue;
      pending.delete(entry);
      entry.controller.abort();
    }
    if (pending.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return async (request, context) => {
    const controller = new AbortController();
    const entry: Pending = { expires: performance.now() + timeoutMs, controller };
    pending.add(entry);
    timer ??= setInterval(check, checkEveryMs);
    let discarding: Promise<unknown> | undefined;
    const waitUntil = (promise: Promise<unknown>) => {
      discarding = promise;
      context?.waitUntil?.(promise);
    };
    try {
      const response = await handler(request, { ...context, deadline: controller.signal, waitUntil });
      if (discarding !== undefined && (closes(request.headers.get('connection')) || closes(response.headers.get('connection')))) await discarding;
      return response;
    } finally {
      if (discarding === undefined) pending.delete(entry);
      else void discarding.finally(() => pending.delete(entry));
    }
  };
}

function closes(connection: string | null): boolean {
  return connection !== null && /(?:^|,)\s*close\s*(?:,|$)/i.test(connection);
}
