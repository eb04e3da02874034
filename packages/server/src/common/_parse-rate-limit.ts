// Runs wherever a standalone server reads its settings: the Node, Bun, Deno and workerd launchers, and the Worker.
import type { RateLimitOptions } from '@plant-store/core';

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
