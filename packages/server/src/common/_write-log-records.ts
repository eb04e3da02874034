// Runs in every standalone launcher: standard output.
import { formatLogRecords, type LogRecord } from './_format-log-records.ts';
import type { StandaloneConfig } from './read-standalone-config.ts';

/**
 * Writes `records` to standard output in the configured format, leaving out
 * those below the configured level, and nothing at all when none is left.
 */
export function writeLogRecords(records: readonly LogRecord[], config: Pick<StandaloneConfig, 'logFormat' | 'logLevel'>): void {
  const text = formatLogRecords(records, config.logFormat, config.logLevel);
  if (text !== '') console.log(text);
}
