/**
 * The default `onError`: the error and its details on the runtime's console
 * (every runtime has one), where an operator sees them; a client only ever
 * gets the code.
 */
export function logError(error: unknown): void {
  (globalThis as { console?: { error(...data: unknown[]): void } }).console?.error('plant-store: unexpected error', error);
}
