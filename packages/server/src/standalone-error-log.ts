import type { ErrorContext } from '@plant-store/core';
import { jsonLogLine } from './json-log-line.ts';
import type { LogFormat } from './read-standalone-config.ts';

/**
 * The standalone servers' `onError`: unexpected errors (a throwing verifier, a
 * failing store) on standard error, where an operator sees them; the client
 * only ever gets the code. `text` writes `plant-store: unexpected error
 * (request <id>)` and the error with its stack, as the console shows it.
 * `json` writes one line (level `error`, `msg`, `requestId`, `method`, `path`,
 * `kind`, and `error`: its name and message, and its causes'): the stack is
 * left out, since a line per error is what a log collector can index, and the
 * message names what failed.
 */
export function standaloneErrorLog(format: LogFormat): (error: unknown, context: ErrorContext) => void {
  if (format === 'text') {
    return (error, context) => {
      const requestId = requestIdOf(context);
      console.error(`plant-store: unexpected error${requestId === undefined ? '' : ` (request ${requestId})`}`, error);
    };
  }
  return (error, context) => {
    const { method, url } = context.request;
    const query = url.indexOf('?');
    console.error(
      jsonLogLine('error', {
        msg: 'plant-store: unexpected error',
        requestId: requestIdOf(context) ?? null,
        method,
        path: query < 0 ? url : url.slice(0, query),
        kind: context.kind,
        error: describe(error, 0),
      }),
    );
  };
}

function requestIdOf(context: ErrorContext): string | undefined {
  return (context as { readonly requestId?: string | undefined }).requestId;
}

/** `TypeError: message`, then its causes', a few deep: a cause chain is how stores report what failed. */
function describe(error: unknown, depth: number): string {
  if (!(error instanceof Error)) return String(error);
  const text = `${error.name}: ${error.message}`;
  return error.cause === undefined || depth >= 3 ? text : `${text} (cause: ${describe(error.cause, depth + 1)})`;
}
