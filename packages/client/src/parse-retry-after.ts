// Runs wherever the client runs: browsers, Node 20+, Bun, Deno and Workers (plain data, no runtime API).

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 §5.6.7: the three forms a recipient reads. Groups: day, month, year, hour, minute, second.
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
// Groups: month, day, hour, minute, second, year.
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);
const FIFTY_YEARS_MS = 50 * 365.25 * 24 * 3600 * 1000;

/**
 * An HTTP date (RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form or
 * asctime) as milliseconds since the epoch; `undefined` for any other text
 * and for a date that does not exist. Read by hand rather than by
 * `Date.parse`, which takes almost any text with a number in it (`x 1` as
 * 2001, `Retry 2099` as the year 2099) and differs between engines.
 */
export function parseHttpDate(text: string, now: number = Date.now()): number | undefined {
  // [day, month, year, hour, minute, second] as written, whichever the form.
  let fields: string[];
  let twoDigitYear = false;
  let match = IMF_FIXDATE.exec(text);
  if (match !== null) fields = match.slice(1, 7);
  else if ((match = RFC_850.exec(text)) !== null) {
    fields = match.slice(1, 7);
    twoDigitYear = true;
  } else if ((match = ASCTIME.exec(text)) !== null) fields = [match[2]!, match[1]!, match[6]!, match[3]!, match[4]!, match[5]!];
  else return undefined;
  const [day, , year, hour, minute, second] = fields.map((field) => Number(field.trim())) as [number, number, number, number, number, number];
  const month = MONTHS.indexOf(fields[1]!);
  // 23:59:60 is the leap second RFC 9110 allows; JavaScript's time has none, so it reads as the second after.
  if (hour > 23 || minute > 59 || second > 60 || (second === 60 && (hour !== 23 || minute !== 59))) return undefined;
  const at = (fullYear: number) => Date.UTC(fullYear, month, day, hour, minute, second);
  let time = at(year);
  if (twoDigitYear) {
    // RFC 9110: a two-digit year that would be more than 50 years ahead is the latest past year with those digits.
    const century = Math.floor(new Date(now).getUTCFullYear() / 100) * 100;
    time = at(century + year) - now > FIFTY_YEARS_MS ? at(century - 100 + year) : at(century + year);
  }
  // Date.UTC rolls 31 Feb over into March: such a date is none. A leap second rolls into the next day by design.
  return new Date(time - (second === 60 ? 1000 : 0)).getUTCDate() === day ? time : undefined;
}

/**
 * A `Retry-After` header (RFC 9110 §10.2.3) as milliseconds from `now`: a
 * number of seconds, or an HTTP date (past dates are 0). `undefined` when
 * absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = parseHttpDate(text, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}
