// Runs on Node, in the workerd launcher's front: refuses D1's answers once the file they were written to has lost its name.
import { lstatSync } from 'node:fs';
import { errorResponse, type PlantResponse } from '@plant-store/core';

/** Which file a path names: the device and inode of its entry (a symbolic link's own, not its target's). */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** Reads which file `path` names now: its identity, `'missing'`, or undefined when it cannot tell (no permission). */
export type IdentityReader = (path: string) => FileIdentity | 'missing' | undefined;

/**
 * The answer to a create while the file is gone: the SQLite store's in that case, byte for byte (the core's message
 * for a store that fails; `_d1-file-watch.test.ts` holds the two together).
 */
export const D1_FILE_GONE: PlantResponse = errorResponse(
  'storage-unavailable',
  'the plant store failed; retrying with the same id, name and tag is safe (200 if the plant was stored)',
);

/** The answer to `/readyz` while the file is gone: the SQLite store's then, byte for byte. */
export const D1_FILE_GONE_NOT_READY: PlantResponse = errorResponse('storage-unavailable', 'the plant store is not available');

/** The Worker's answers to a create that D1 gave, from its file: stored, a replay or a conflict read there, or full. */
const FROM_THE_FILE = new Set([200, 409, 507]);

/** What {@link d1FileWatch} needs. */
export interface D1FileWatchOptions {
  /** The D1 database file (`d1DatabaseFile`). */
  readonly path: string;
  /** Told, in a line for the log, when the file is found gone and when creates are served again. */
  readonly say: (line: string) => void;
  /** Default: one `stat` of the path. */
  readonly identityOf?: IdentityReader;
}

/** Judges the Worker's answers on D1 by whether the file they came from still has its name. */
export interface D1FileWatch {
  /**
   * The answer to give in place of the Worker's `status` to a create (`readiness` false) or to `/readyz`,
   * or undefined to pass the Worker's on. Only answers D1 gave from its file are judged, each with one `stat`.
   */
  overrule(status: number, readiness: boolean): PlantResponse | undefined;
  /** workerd was started again: it opens the file that has the name now, which the next answer's check adopts. */
  reopened(): void;
}

/**
 * Watches the D1 database file that workerd holds open, as the SQLite store
 * watches its own (its device and inode): workerd keeps writing to a file
 * that was removed or replaced, and the 200s it answers then are lost at the
 * next start, which opens the file that has the name (a new, empty one when
 * none has). So once the file under the name is missing or another, every
 * answer of the Worker that came from D1's file (a create's 200, 409 or 507,
 * `/readyz`'s 200) is answered {@link D1_FILE_GONE} (503, 1501) or
 * {@link D1_FILE_GONE_NOT_READY} instead, until the file is back under its
 * name (moved back: the one workerd writes to) or workerd is started again
 * (it then opens the file that has the name). Answers the Worker gave
 * otherwise (a 401, a 400, its own 503) are passed on: nothing was read or
 * written, and the order of checks stays the Worker's.
 *
 * The check is one synchronous `stat` of the path (about a microsecond) after
 * the Worker's answer, before it is passed on, so that no 200 leaves the front
 * for a create that went to a file that had already lost its name. The file is
 * the one workerd opened: the first one an answer from D1 finds there, after
 * the start and after each restart of workerd (D1 makes it when first asked,
 * so there is none before; and a create answered 200 or `/readyz` answered 200
 * means D1 has it open). Where there is still none, or the path cannot be
 * read, nothing is judged, as the SQLite store does when it cannot tell.
 * SQLite's `-wal` and `-shm` are not watched: SQLite itself removes and makes
 * them again.
 */
export function d1FileWatch(options: D1FileWatchOptions): D1FileWatch {
  const { path, say } = options;
  const identityOf = options.identityOf ?? statIdentity;
  /** The file workerd opened, once an answer of D1's found it. */
  let opened: FileIdentity | undefined;
  /** What became of it, as last said: the line is written once per change. */
  let gone: 'removed' | 'replaced by another file' | undefined;
  return {
    overrule(status, readiness) {
      if (readiness ? status !== 200 : !FROM_THE_FILE.has(status)) return undefined;
      const now = identityOf(path);
      if (now === undefined) return undefined;
      if (opened === undefined) {
        if (now === 'missing') return undefined;
        opened = now;
        if (gone !== undefined) {
          gone = undefined;
          say(`plant-store: workerd was started again and opened the D1 file ${path}; creates are served again`);
        }
        return undefined;
      }
      const what = now === 'missing' ? 'removed' : now.dev === opened.dev && now.ino === opened.ino ? undefined : 'replaced by another file';
      if (what !== gone) {
        say(
          what === undefined
            ? `plant-store: the D1 file ${path} is back; creates are served again`
            : `plant-store: the D1 file ${path} was ${what} since workerd opened it; creates are refused until it is back or workerd is started again (restart the server), which opens the file of that name`,
        );
        gone = what;
      }
      if (what === undefined) return undefined;
      return readiness ? D1_FILE_GONE_NOT_READY : D1_FILE_GONE;
    },
    reopened() {
      opened = undefined;
    },
  };
}

/** {@link IdentityReader} by one synchronous `lstat`; no exception is made for a missing file, the common case of a gone one. */
function statIdentity(path: string): FileIdentity | 'missing' | undefined {
  try {
    // The name's own entry, not where a link leads: workerd opens no database through a symbolic link (SQLITE_CANTOPEN
    // at its next start), so a name that became one names another file.
    const entry = lstatSync(path, { throwIfNoEntry: false });
    return entry === undefined ? 'missing' : { dev: entry.dev, ino: entry.ino };
  } catch (error) {
    // A directory of the path gone, or a loop of links in it: no file has the name.
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'ENOTDIR' || code === 'ELOOP' ? 'missing' : undefined;
  }
}
