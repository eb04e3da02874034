// Runs wherever the SQLite store runs (Node 22.13+, Bun, Deno): plain data.

/** What a failed SQLite call means to the store. */
export type SqliteErrorKind = 'busy' | 'full' | 'other';

// Primary result codes (https://sqlite.org/rescode.html); extended codes keep
// them in their low byte.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_FULL = 13;

/**
 * Sorts an error thrown by the runtime's SQLite: `busy` when another
 * connection holds the lock (worth trying again), `full` when the disk or the
 * database size limit is reached (the contract's 507), `other` for the rest.
 * `node:sqlite` puts the code in `errcode`, `bun:sqlite` in `errno`; Deno's
 * `node:sqlite` gives only the message, so the messages SQLite writes for
 * those codes are the fallback.
 */
export function sqliteErrorKind(error: unknown): SqliteErrorKind {
  const { errcode, errno, message } = (error ?? {}) as { errcode?: unknown; errno?: unknown; message?: unknown };
  const code = typeof errcode === 'number' ? errcode : typeof errno === 'number' ? errno : undefined;
  if (code !== undefined) {
    const primary = code & 0xff;
    if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) return 'busy';
    return primary === SQLITE_FULL ? 'full' : 'other';
  }
  const text = typeof message === 'string' ? message : '';
  if (/^database (table )?is locked/.test(text)) return 'busy';
  return /^database or disk is full/.test(text) ? 'full' : 'other';
}
