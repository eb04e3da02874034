// Runs wherever node-http/serve-node-http.ts does (Node, Deno's node:http, the workerd launcher's front).
import type { ServerResponse } from 'node:http';

// Keyed by the response, which the access log holds until its 'finish': the
// id lives exactly as long as the answer it names.
const recorded = new WeakMap<ServerResponse, string>();
const traces = new WeakMap<ServerResponse, string>();

/**
 * Records the request id of the answer `res` is about to carry, as whoever
 * chose it says: the core (through the Node adapter), the Worker behind the
 * workerd front (its answer's `x-request-id`), or the server itself for an
 * answer of its own (`requestIdOf` of `@plant-store/core`, as the core chooses); and the trace of the core's
 * server span, when the handler has a tracer.
 */
export function recordRequestId(res: ServerResponse, requestId: string, traceId?: string): void {
  recorded.set(res, requestId);
  if (traceId !== undefined) traces.set(res, traceId);
}

/** The request id recorded for `res`, for its access-log line; undefined when the answer carries none. */
export function recordedRequestId(res: ServerResponse): string | undefined {
  return recorded.get(res);
}

/** The trace of the core's server span recorded for `res`; undefined without a tracer. */
export function recordedTraceId(res: ServerResponse): string | undefined {
  return traces.get(res);
}
