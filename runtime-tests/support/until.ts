// Runs in the test process (Node): waiting, bounded, on a condition no callback announces.

/**
 * Resolves once `condition` holds, polling every `everyMs` (25 ms unless a
 * check is costly); rejects naming `what` after `timeoutMs`. For waiting on
 * an event no callback announces.
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string, everyMs = 25): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
