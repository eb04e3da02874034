// Runs wherever a standalone server reads its settings: the Node, Bun, Deno and workerd launchers, and the Worker.
import { DEFAULT_MAX_EVENT_LOOP_DELAY_MS, DEFAULT_MAX_IN_FLIGHT, type OverloadOptions, type RateLimitOptions } from '@plant-store/core';

/**
 * Reads the overload bounds: `PLANT_STORE_MAX_IN_FLIGHT` (default 256) and
 * `PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS` (default 1000), each a whole number,
 * `0` turning that bound off; undefined (no gate at all) when both are off.
 *
 * @throws TypeError naming the variable for anything but a whole number.
 */
export function parseOverload(maxInFlightText: string | undefined, maxDelayText: string | undefined): OverloadOptions | undefined {
  const maxInFlight = wholeNumber('PLANT_STORE_MAX_IN_FLIGHT', maxInFlightText, DEFAULT_MAX_IN_FLIGHT);
  const maxEventLoopDelayMs = wholeNumber('PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS', maxDelayText, DEFAULT_MAX_EVENT_LOOP_DELAY_MS);
  return maxInFlight === 0 && maxEventLoopDelayMs === 0 ? undefined : { maxInFlight, maxEventLoopDelayMs };
}

/**
 * Reads `PLANT_STORE_RATE_LIMIT`: `LIMIT/SECONDS` (`100/60`: 100 creates per
 * token per minute; a trailing `s` is allowed), or unset, empty or `off`
 * for no limit.
 *
 * @throws TypeError naming the variable and the form it takes.
 */
export function parseRateLimit(text: string | undefined): RateLimitOptions | undefined {
  const value = text?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'off') return undefined;
  const match = /^(\d{1,9})\s*\/\s*(\d{1,9})\s*s?$/.exec(value);
  if (match === null || Number(match[1]) < 1 || Number(match[2]) < 1) {
    throw new TypeError(
      `PLANT_STORE_RATE_LIMIT: expected LIMIT/SECONDS such as 100/60 (100 creates per token per minute) or off, got ${JSON.stringify(text?.trim())}`,
    );
  }
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}

function wholeNumber(name: string, text: string | undefined, fallback: number): number {
  const value = text?.trim() ?? '';
  if (value === '') return fallback;
  if (!/^\d{1,9}$/.test(value)) throw new TypeError(`${name}: expected a whole number, 0 for no bound, got ${JSON.stringify(value)}`);
  return Number(value);
}
