// Runs on workerd (the Worker) and on Node (the standalone workerd server's front): headers of the hop between them.

/** Set by the front on every request it passes on (and never taken from a client): the Worker is behind it. */
export const FRONT_MARK = 'x-plant-store-front';

/**
 * Set by the Worker, behind the front, on an answer that closes its connection (`Connection: close`: /metrics,
 * the 408): workerd drops `Connection` from the Worker's answers, so the front would not see it. The front closes
 * the client's connection for it and sends the mark no further.
 */
export const CLOSE_MARK = 'x-plant-store-close';
