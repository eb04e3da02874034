// Runs in every standalone launcher: plain data.
import { jsonLogLine, type LogLevel } from './_json-log-line.ts';
import { writesLevel } from './_log-level.ts';
import type { LogFormat } from './log-format.ts';

/** A line a standalone server writes of itself (at start, on a restart, on a failure), before it is formatted. */
export interface LogRecord {
  readonly level: LogLevel;
  /** The line as the text format writes it, e.g. `plant-store listening on http://127.0.0.1:8080 (store: memory)`. */
  readonly msg: string;
  /** More for machines to read, written in the JSON format only (e.g. `url`). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * The text to write for `records`, in one write so that a reader who waits
 * for the first line sees them all: each `msg` on its own line in the `text`
 * format, or one {@link jsonLogLine} each with `msg` and its fields in `json`.
 * Records below `threshold` (`PLANT_STORE_LOG_LEVEL`) are left out: `''`
 * when none is left, which the caller then does not write.
 */
export function formatLogRecords(records: readonly LogRecord[], format: LogFormat, threshold: LogLevel = 'debug'): string {
  const written = records.filter((record) => writesLevel(threshold, record.level));
  if (format === 'text') return written.map((record) => record.msg).join('\n');
  const time = new Date();
  return written.map((record) => jsonLogLine(record.level, { msg: record.msg, ...record.fields }, time)).join('\n');
}
