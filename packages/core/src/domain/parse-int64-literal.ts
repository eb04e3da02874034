// Runs anywhere (no runtime API): a JSON number literal as an exact int64, or not one.
import { INT64_MAX, INT64_MIN } from './schemas.ts';

const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?$/;
const LEADING_ZEROS = /^0+/;
const ZERO = 0x30;
// int64 has at most 19 decimal digits; anything longer is out of range.
const MAX_INT64_DIGITS = 19;

/**
 * Reads a JSON number literal exactly and returns its value when it is an
 * integer in the int64 range (`5`, `5.0`, `5e2`, `-9223372036854775808`),
 * otherwise `undefined` (`5.5`, `1e19`, `9223372036854775808`).
 *
 * Works on the digits as text, so a megabyte of digits or an exponent such as
 * `1e999999999` costs one pass and never builds a huge bigint. An exponent's
 * leading zeros count for nothing (`1e+0002` is 100).
 */
export function parseInt64Literal(literal: string): bigint | undefined {
  const match = NUMBER_LITERAL.exec(literal);
  if (match === null) return undefined;
  const sign = match[1] ?? '';
  const fraction = match[3] ?? '';
  // Leading zeros are allowed in an exponent (RFC 8259 §6): `1e0000000000002` is 100.
  const exponentDigits = (match[5] ?? '').replace(LEADING_ZEROS, '');

  const significant = ((match[2] ?? '') + fraction).replace(LEADING_ZEROS, '');
  if (significant === '') return 0n;

  // An exponent this long is beyond any int64 one way or the other; only its sign matters.
  let exponent = exponentDigits.length > 12 ? Infinity : Number(exponentDigits);
  if (match[4] === '-') exponent = -exponent;
  exponent -= fraction.length;
  // Counted by hand: a `/0+$/` tries every zero of a run as its start, a time the square of the run's length
  // (a megabyte of `1`, zeros and `1` took minutes).
  let end = significant.length;
  while (significant.charCodeAt(end - 1) === ZERO) end--;
  const digits = significant.slice(0, end);
  exponent += significant.length - end;

  if (exponent < 0) return undefined;
  if (digits.length + exponent > MAX_INT64_DIGITS) return undefined;
  const value = BigInt(sign + digits + '0'.repeat(exponent));
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}
