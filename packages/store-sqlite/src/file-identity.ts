// Runs on Node 22.13+, Bun and Deno, wherever the SQLite store runs: node:fs is on all three.

/** Which file a path names: its device and inode. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
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
  let statSync: (path: string) => { dev: number; ino: number };
  try {
    ({ statSync } = (await import(NODE_FS)) as { statSync: typeof statSync });
  } catch {
    return () => undefined;
  }
  return (path) => {
    try {
      const { dev, ino } = statSync(path);
      return { dev, ino };
    } catch (error) {
      // No file has the name: none at all, a directory of the path gone, or a symbolic link that leads nowhere or
      // to itself (a link to the file opened stats as that file).
      const code = (error as { code?: unknown } | null)?.code;
      return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' ? 'missing' : undefined;
    }
  };
}

/** Whether two identities name the same file. */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
