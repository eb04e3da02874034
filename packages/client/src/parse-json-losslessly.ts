import { isSafeNumber, parse, splitNumber } from 'lossless-json';

/** Past this exponent an integer-valued number stays a (rounded or infinite) `number`: a hostile `1e999999999` must not become a billion-digit bigint. */
const MAX_BIGINT_EXPONENT = 1000;

/**
 * A JSON number as the closest faithful JavaScript value: a `number` when it
 * holds the value exactly, a `bigint` for an integer beyond 2^53 (which a
 * `number` would round), written `9007199254740993` or `9.007199254740993e15`
 * alike; otherwise the nearest `number`, as `JSON.parse` gives.
 */
function parseNumber(text: string): number | bigint {
  if (isSafeNumber(text)) return Number(text);
  const { sign, digits, exponent } = splitNumber(text);
  // The value is d.ddd × 10^exponent: an integer when no digit falls after the point.
  if (exponent >= digits.length - 1 && exponent <= MAX_BIGINT_EXPONENT) return BigInt(`${sign}${digits}${'0'.repeat(exponent - (digits.length - 1))}`);
  return Number(text);
}

/**
 * Parses `text` as JSON without rounding large integers, on every runtime
 * (`JSON.parse` with source text access is not everywhere yet). As with
 * `JSON.parse`, a repeated key keeps its last value; invalid JSON throws a
 * `SyntaxError`.
 */
export function parseJsonLosslessly(text: string): unknown {
  return parse(text, null, { parseNumber, onDuplicateKey: ({ newValue }) => newValue });
}
