/**
 * The wait before retry number `retry` (1 for the first retry): exponential,
 * `initialDelayMs` doubled each time and capped at `maxDelayMs`, with "equal
 * jitter": a random point in the upper half of that ceiling. The lower half
 * keeps clients from retrying at once; the random half keeps many clients that
 * failed together from retrying together.
 */
export function backoffDelay(retry: number, initialDelayMs: number, maxDelayMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, retry - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}
