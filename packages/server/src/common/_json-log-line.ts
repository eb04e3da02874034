// Runs in every standalone server: plain data.
/** How much a log line matters, as log collectors read a JSON line's `level`. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * One log line as a JSON object (`PLANT_STORE_LOG_FORMAT=json`): `time`
 * (ISO 8601, UTC, milliseconds), `level`, then `fields` in their order. Always
 * one line: JSON escapes every newline a message may hold.
 */
export function jsonLogLine(level: LogLevel, fields: Readonly<Record<string, unknown>>, time: Date = new Date()): string {
  return JSON.stringify({ time: time.toISOString(), level, ...fields });
}
