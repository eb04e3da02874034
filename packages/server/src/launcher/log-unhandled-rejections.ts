// Runs in the standalone launchers on Node, Bun and Deno (run-node.ts, run-bun.ts, run-deno.ts),
// each of which has Node's `process` events.
import process from 'node:process';
import { formatLogRecords } from '../common/_format-log-records.ts';
import type { LogFormat } from '../common/log-format.ts';

/**
 * Keeps a standalone server serving when a promise rejects with nobody to
 * handle it (a driver that drops one of its own, as postgres.js 3.4.9 does
 * with the state query of a multi-host connection): one error line on
 * standard error instead of the runtime's default, which ends the process
 * and every request in flight with it. The store's own errors never get
 * here; they answer 503.
 *
 * @param format The log format of the server's other lines.
 * @example
 * logUnhandledRejections('json'); // before serving, as runNode() does
 */
export function logUnhandledRejections(format: LogFormat): void {
  process.on('unhandledRejection', (reason: unknown) => {
    const error = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
    console.error(formatLogRecords([{ level: 'error', msg: `plant-store: an unhandled rejection, logged and served on: ${error}` }], format));
  });
}
