// Runs in every standalone server (Node, Bun, Deno, workerd's launcher): standard error only.
import { parseTraceparent, routePath, summarizeRepeats, type ErrorContext } from '@plant-store/core';
import { jsonLogLine } from './_json-log-line.ts';
import type { LogFormat } from './log-format.ts';

interface Logged {
  readonly error: unknown;
  readonly context: ErrorContext;
}

/**
 * The standalone servers' `onError`: unexpected errors (a throwing verifier, a
 * failing store) on standard error, where an operator sees them; the client
 * only ever gets the code. `text` writes `plant-store: unexpected error
 * (request <id>)` and the error with its stack, as the console shows it.
 * `json` writes one line (level `error`, `msg`, `requestId`, `traceId` (of the
 * request's span, else of a valid `traceparent`), `method`, `path`, `kind`, and `error`: its name and message, and its causes'): the stack is
 * left out, since a line per error is what a log collector can index, and the
 * message names what failed.
 *
 * Errors alike (same kind, same error and causes, digits aside) are written
 * once, the first at once, then counted: at the end of each 10 s window in
 * which more came, one line says how many (`plant-store: 41230 more like it
 * in the last 10 s: Error: database or disk is full`; in `json`, `msg`
 * `plant-store: repeated error` with `count`, `seconds`, `kind` and `error`).
 * A store failing under load then writes a few lines, not one per request.
 */
export function standaloneErrorLog(format: LogFormat, windowMs = 10_000): (error: unknown, context: ErrorContext) => void {
  const write = format === 'text' ? writeText : writeJson;
  const log = summarizeRepeats<Logged>({
    windowMs,
    keyOf: ({ error, context }) => `${context.kind} ${describe(error, 0)}`,
    write,
    writeSummary: format === 'text' ? summaryText : summaryJson,
  });
  return (error, context) => log({ error, context });
}

function writeText({ error, context }: Logged): void {
  const requestId = requestIdOf(context);
  console.error(`plant-store: unexpected error${requestId === undefined ? '' : ` (request ${requestId})`}`, error);
}

function writeJson({ error, context }: Logged): void {
  const { method, url } = context.request;
  console.error(
    jsonLogLine('error', {
      msg: 'plant-store: unexpected error',
      requestId: requestIdOf(context) ?? null,
      traceId: context.traceId ?? parseTraceparent(context.request.header('traceparent'))?.traceId ?? null,
      method,
      path: routePath(url),
      kind: context.kind,
      error: describe(error, 0),
    }),
  );
}

function summaryText({ error }: Logged, count: number, seconds: number): void {
  console.error(`plant-store: ${count} more like it in the last ${seconds} s: ${describe(error, 0)}`);
}

function summaryJson({ error, context }: Logged, count: number, seconds: number): void {
  console.error(jsonLogLine('error', { msg: 'plant-store: repeated error', count, seconds, kind: context.kind, error: describe(error, 0) }));
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
