// Runs on Bun, in the standalone Bun launcher and each of its worker processes: the Fetch server's graceful stop.
import type { FetchContext, FetchHandler } from '@plant-store/adapter-fetch';
import { SHUTDOWN_TIMINGS } from '../common/shutdown-timings.ts';

/** A Fetch handler that can be drained for a graceful stop. */
export interface DrainingFetch {
  readonly fetch: FetchHandler;
  /**
   * From now on hands new requests to the core as draining (503, code 1501)
   * and closes their connections,
   * and resolves once `graceMs` have passed and the requests in flight are
   * done (with `true`), or after `timeoutMs` whatever is in flight (with `false`).
   */
  drain(graceMs: number, timeoutMs: number): Promise<boolean>;
  /**
   * A signal listener for a graceful stop, which acts once: drain (with the
   * grace and limit of {@link SHUTDOWN_TIMINGS}), then `close` the server,
   * told whether nothing was left in flight, then `exit`.
   */
  stopper(close: (idle: boolean) => Promise<unknown>, exit: () => void): () => void;
}

/** Options of {@link createDrainingFetch}. */
export interface DrainingFetchOptions {
  /**
   * Resolves once no request is in flight, for a handler that keeps that
   * count already (as Bun's request deadline, `withRequestDeadline` in bun/with-request-deadline.ts, does): the drain then
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
      const deadline = new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false));
      return Promise.race([Promise.all([grace, idle]).then(() => true), deadline]);
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
 * and `waitUntil` on its prototype (as those of Bun's request deadline do).
 */
function drainingContext(context: FetchContext | undefined): FetchContext {
  if (context === undefined) return { draining: true };
  const { deadline } = context;
  const waitUntil = context.waitUntil === undefined ? undefined : (promise: Promise<unknown>) => context.waitUntil!(promise);
  return { draining: true, ...(deadline === undefined ? {} : { deadline }), ...(waitUntil === undefined ? {} : { waitUntil }) };
}
