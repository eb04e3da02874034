// Runs in the test process (Node): waiting, bounded, on a condition no callback announces.

/**
 * Resolves once `condition` holds, polling every 25 ms; rejects naming `what`
 * after `timeoutMs`. For waiting on an event no callback announces.
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
