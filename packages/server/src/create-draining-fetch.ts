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
