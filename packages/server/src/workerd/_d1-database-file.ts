// Runs on Node, in the workerd launcher: where miniflare keeps the D1 database that the launcher binds.
import { createHash, createHmac } from 'node:crypto';
import { join } from 'node:path';

/** The Durable Object class behind miniflare's local D1, whose name is the directory of its databases' files. */
const D1_UNIQUE_KEY = 'miniflare-D1DatabaseObject';

/**
 * The SQLite file in which miniflare keeps the D1 database `databaseId`,
 * persisted under `persistDir` (`d1Persist`): `<persistDir>/miniflare-D1DatabaseObject/<id>.sqlite`,
 * with `-wal` and `-shm` beside it. miniflare names it after the Durable
 * Object id it derives from the database id (its `durableObjectNamespaceIdFromName`,
 * miniflare 4.20260730.0: an HMAC-SHA-256 of the name keyed by the SHA-256 of
 * the class's unique key, 16 bytes, then one of those 16, in hex), and workerd
 * creates the file when D1 is first asked something. Computed rather than
 * looked for, so that the launcher knows it before it exists; should miniflare
 * name it otherwise one day, the front finds no file there and judges nothing
 * (runtime-tests/d1-file-removed.test.ts finds the file by listing the directory).
 */
export function d1DatabaseFile(persistDir: string, databaseId: string): string {
  const key = createHash('sha256').update(D1_UNIQUE_KEY).digest();
  const name = createHmac('sha256', key).update(databaseId).digest().subarray(0, 16);
  const check = createHmac('sha256', key).update(name).digest().subarray(0, 16);
  return join(persistDir, D1_UNIQUE_KEY, `${Buffer.concat([name, check]).toString('hex')}.sqlite`);
}
