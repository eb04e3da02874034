// Runs in the standalone servers on node:http (Node, Deno, workerd's front): standard output that its reader may
// close, or stop reading.

/** Lines waiting for standard output's reader, past which more are dropped rather than held. */
const MOST_PENDING_BYTES = 1024 * 1024;

let failed = false;
let watched = false;
let dropped = 0;

/**
 * Writes `text` to standard output, and nothing once standard output has
 * failed: its reader gone (`EPIPE`: `plant-store | head -1`, a log shipper
 * that died). Without a listener, that failure is an 'error' event nobody
 * hears, which ends the process at its next access-log line; the server
 * serves on instead, and says once, on standard error, that its output is
 * lost. While a reader that is there reads nothing, what waits for it is
 * held up to 1 MiB; past that, text is dropped and counted, and the count is
 * written once the reader has taken what waited.
 *
 * @example
 * const accessLog = batchLines((text) => writeStdout(`${text}\n`));
 */
export function writeStdout(text: string): void {
  if (failed) return;
  const stdout = process.stdout;
  if (!watched) {
    watched = true;
    stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (failed) return;
      failed = true;
      // Standard error may be gone too: then this line is dropped alike.
      process.stderr.on('error', () => {});
      process.stderr.write(
        `plant-store: standard output failed (${error.code ?? error.message}); the access log and other lines meant for it are dropped from now on\n`,
      );
    });
  }
  if (stdout.writableLength > MOST_PENDING_BYTES) {
    if (dropped++ === 0) {
      stdout.once('drain', () => {
        const count = dropped;
        dropped = 0;
        writeStdout(`plant-store: ${count} writes to standard output (access-log lines) were dropped while it was not read\n`);
      });
    }
    return;
  }
  stdout.write(text);
}
