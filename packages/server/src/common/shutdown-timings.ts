// Runs in every standalone server: plain data.
/**
 * How every standalone server stops on SIGINT or SIGTERM (docs/contract.md,
 * "Standalone runs"), on every runtime.
 */
export const SHUTDOWN_TIMINGS = Object.freeze({
  /**
   * How long requests arriving on kept-alive connections still get an answer
   * (503, `Connection: close`) once stopping began, so that a client about to
   * send hears "retry elsewhere" rather than meets a cut connection.
   */
  graceMs: 500,
  /** Longest wait for requests in flight before connections are cut. */
  timeoutMs: 10_000,
});
