// Runs in the standalone launchers that serve on node:http: Node, Deno (its node:http) and workerd's front.
import { writeLogRecords } from '../common/_write-log-records.ts';
import type { StandaloneConfig } from '../common/read-standalone-config.ts';
import { writeTimeoutMessage } from './serve-node-http.ts';

/**
 * How a standalone server reports connections cut for the write timeout
 * (`PLANT_STORE_WRITE_TIMEOUT_MS`): one `warn` line per check that cut any,
 * in the configured format and level, so that a flood of clients that never
 * read is seen without a line per client.
 */
export function reportWriteTimeouts(config: Pick<StandaloneConfig, 'logFormat' | 'logLevel' | 'writeTimeoutMs'>): (connections: number) => void {
  return (connections) =>
    writeLogRecords(
      [{ level: 'warn', msg: writeTimeoutMessage(connections, config.writeTimeoutMs), fields: { connections, writeTimeoutMs: config.writeTimeoutMs } }],
      config,
    );
}
