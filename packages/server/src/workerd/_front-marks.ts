// Runs on workerd (the Worker) and on Node (the standalone workerd server's front): headers of the hop between them.

/** Set by the front on every request it passes on (and never taken from a client): the Worker is behind it. */
export const FRONT_MARK = 'x-plant-store-front';

/**
 * Set by the Worker, behind the front, on an answer that closes its connection (`Connection: close`: /metrics,
 * the 408): workerd drops `Connection` from the Worker's answers, so the front would not see it. The front closes
 * the client's connection for it and sends the mark no further.
 */
export const CLOSE_MARK = 'x-plant-store-close';

/**
 * Set by the front on a `HEAD` of the metrics that it passes on as `GET`, to have the body it adds its own counts to
 * (and so the `Content-Length` of the whole scrape): the Worker hands its core the request as the `HEAD` it was, so
 * that it is counted as one.
 */
export const HEAD_MARK = 'x-plant-store-head';
