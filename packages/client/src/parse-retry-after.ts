/**
 * A `Retry-After` header (RFC 9110 §10.2.3) as milliseconds from `now`: a
 * number of seconds, or an HTTP date (past dates are 0). `undefined` when
 * absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  // Only the date forms HTTP allows carry a weekday or "GMT"; a bare "5.5" is not a date.
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, date - now);
}
