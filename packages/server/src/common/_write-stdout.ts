// Runs in the standalone servers on node:http (Node, Deno, workerd's front): standard output that its reader may close.

let failed = false;
let watched = false;

/**
 * Writes `text` to standard output, and nothing once standard output has
 * failed: its reader gone (`EPIPE`: `plant-store | head -1`, a log shipper
 * that died). Without a listener, that failure is an 'error' event nobody
 * hears, which ends the process at its next access-log line; the server
 * serves on instead, and says once, on standard error, that its output is
 * lost.
 *
 * @example
 * const accessLog = batchLines((text) => writeStdout(`${text}\n`));
 */
export function writeStdout(text: string): void {
  if (failed) return;
  if (!watched) {
    watched = true;
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (failed) return;
      failed = true;
      // Standard error may be gone too: then this line is dropped alike.
      process.stderr.on('error', () => {});
      process.stderr.write(
        `plant-store: standard output failed (${error.code ?? error.message}); the access log and other lines meant for it are dropped from now on\n`,
      );
    });
  }
  process.stdout.write(text);
}
