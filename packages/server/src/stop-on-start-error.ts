/**
 * Ends a standalone Node process whose start failed (a setting that cannot
 * work, a database out of reach) with one line naming the cause and exit 1,
 * never a stack trace.
 */
export function stopOnStartError(error: unknown): never {
  console.error(`plant-store: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
