// Runs in every standalone server: plain data.
import { routePath } from '@plant-store/core';
import { accessLogLine } from './access-log.ts';
import { jsonLogLine } from './_json-log-line.ts';
import type { LogFormat } from './log-format.ts';

/** What an access-log line tells of one answered request. */
export interface AccessLogEntry {
  /** `undefined` when the request's head could not be read (a protocol refusal). */
  readonly method: string | undefined;
  /** The request target as sent; only the path it is routed by is written ({@link routePath}). */
  readonly url: string | undefined;
  readonly status: number;
  /** Milliseconds from the request (or the connection, for a refusal) to the answer. */
  readonly ms: number;
  /** The answer's `X-Request-Id`, when it has one. */
  readonly requestId?: string | undefined;
  /** The trace the request belongs to: its server span's with a tracer, else that of its valid `traceparent` header. */
  readonly traceId?: string | undefined;
}

/**
 * How a server writes its access log in `format`: `text` is
 * {@link accessLogLine}'s `POST /plants 200 0.4ms` (`-` for what was not
 * read); `json` is one object per line with `time`, `level` (`info`),
 * `requestId`, `traceId` (of its span, else of a valid `traceparent`), `method`, `path`
 * (as the request is routed: without the query, which may hold secrets, and
 * without an absolute-form target's scheme and host, which may hold a
 * password), `status` and `ms` (one decimal), `null` for what is not known.
 */
export function formatAccessLog(format: LogFormat): (entry: AccessLogEntry) => string {
  if (format === 'text') return (entry) => accessLogLine(entry.method ?? '-', entry.url ?? '-', entry.status, entry.ms);
  return (entry) =>
    jsonLogLine('info', {
      requestId: entry.requestId ?? null,
      traceId: entry.traceId ?? null,
      method: entry.method ?? null,
      path: entry.url === undefined ? null : routePath(entry.url),
      status: entry.status,
      ms: Math.round(entry.ms * 10) / 10,
    });
}
