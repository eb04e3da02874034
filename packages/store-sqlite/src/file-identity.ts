// Runs on Node 22.13+, Bun and Deno, wherever the SQLite store runs: node:fs is on all three.

/**
 * Which file a path names: its device and inode, and those of the name's own
 * entry (the file itself, or the symbolic link the name now is). A name that
 * became a link, even to the file opened, is another file: SQLite names the
 * write-ahead log after the path a link leads to, so a start after a crash
 * would not find the log the running connection writes beside the name.
 */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly entryDev: number;
  readonly entryIno: number;
}

/** Reads which file `path` names now: its identity, `'missing'`, or undefined when it cannot tell (no permission). */
export type IdentityReader = (path: string) => FileIdentity | 'missing' | undefined;

// Held in a variable, as in open-sqlite.ts, so that no bundler for a Worker
// tries to resolve it.
const NODE_FS = 'node:fs';

/**
 * Loads a synchronous `stat` for {@link IdentityReader}: one system call, so
 * the store can afford it before every batch and readiness probe. Deno
 * without read permission on the path, or a runtime without `node:fs`, gets
 * a reader that cannot tell.
 */
export async function loadIdentityReader(): Promise<IdentityReader> {
  type Stat = { dev: number; ino: number; isSymbolicLink(): boolean };
  let fs: { statSync: (path: string) => Stat; lstatSync: (path: string) => Stat };
  try {
    fs = (await import(NODE_FS)) as typeof fs;
  } catch {
    return () => undefined;
  }
  return (path) => {
    try {
      // One system call for a plain file; a link is followed too.
      const entry = fs.lstatSync(path);
      const file = entry.isSymbolicLink() ? fs.statSync(path) : entry;
      return { dev: file.dev, ino: file.ino, entryDev: entry.dev, entryIno: entry.ino };
    } catch (error) {
      // No file has the name: none at all, a directory of the path gone, or a symbolic link that leads nowhere or
      // to itself.
      const code = (error as { code?: unknown } | null)?.code;
      return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' ? 'missing' : undefined;
    }
  };
}

/** Whether two identities name the same file through the same entry. */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.entryDev === b.entryDev && a.entryIno === b.entryIno;
}
