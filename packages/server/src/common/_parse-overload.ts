// Runs wherever a standalone server reads its settings: the Node, Bun, Deno and workerd launchers, and the Worker.
import { DEFAULT_MAX_EVENT_LOOP_DELAY_MS, DEFAULT_MAX_IN_FLIGHT, type OverloadOptions } from '@plant-store/core';

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

function wholeNumber(name: string, text: string | undefined, fallback: number): number {
  const value = text?.trim() ?? '';
  if (value === '') return fallback;
  if (!/^\d{1,9}$/.test(value)) throw new TypeError(`${name}: expected a whole number, 0 for no bound, got ${JSON.stringify(value)}`);
  return Number(value);
}
