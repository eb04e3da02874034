// Runs wherever the SQLite store runs (Node 22.13+, Bun, Deno): plain data.

/** What a failed SQLite call means to the store. */
export type SqliteErrorKind = 'busy' | 'full' | 'damaged' | 'other';

// Primary result codes (https://sqlite.org/rescode.html); extended codes keep
// them in their low byte.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_FULL = 13;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/**
 * Sorts an error thrown by the runtime's SQLite: `busy` when another
 * connection holds the lock (worth trying again), `full` when the disk or the
 * database size limit is reached (the contract's 507), `damaged` when the
 * file's content is not a sound database (SQLITE_CORRUPT, SQLITE_NOTADB),
 * `other` for the rest.
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
    if (primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB) return 'damaged';
    return primary === SQLITE_FULL ? 'full' : 'other';
  }
  const text = typeof message === 'string' ? message : '';
  if (/^database (table )?is locked/.test(text)) return 'busy';
  if (/^(database disk image is malformed|file is not a database)/.test(text)) return 'damaged';
  return /^database or disk is full/.test(text) ? 'full' : 'other';
}
