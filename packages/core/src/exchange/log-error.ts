// Runs anywhere: the default `onError`, on the console, the one output every runtime has.
import { summarizeRepeats } from './summarize-repeats.ts';

const consoleError = (...data: unknown[]): void => (globalThis as { console?: { error(...data: unknown[]): void } }).console?.error(...data);

/** `Error: message`: what tells one error from another in the log. */
function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

const write = summarizeRepeats<unknown>({
  keyOf: describe,
  write: (error) => consoleError('plant-store: unexpected error', error),
  writeSummary: (first, count, seconds) => consoleError(`plant-store: ${count} more like "${describe(first)}" in the last ${seconds} s`),
});

/**
 * The default `onError`: the error and its details on the runtime's console
 * (every runtime has one), where an operator sees them; a client only ever
 * gets the code. The first error of a kind is written at once, with its
 * stack; those like it (same name and message, digits aside) within 10 s are
 * counted and written as one line, so a failing store under load does not
 * flood the log.
 */
export function logError(error: unknown): void {
  write(error);
}
