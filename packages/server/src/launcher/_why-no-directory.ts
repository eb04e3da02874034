// Runs in the Node, Bun, Deno and workerd launchers, when a directory of the store cannot be made.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Why `dir` could not be made, in words fit for a start error. `mkdir` says
 * `EEXIST: file already exists, mkdir '.plant-store'` when a file holds the
 * name, which reads as if the directory were there; this names the file
 * instead. Any other cause (no permission, a read-only disk) is given as the
 * runtime words it.
 *
 * @param error What `mkdirSync(dir, { recursive: true })` threw.
 */
export function whyNoDirectory(dir: string, error: unknown): string {
  for (let path = resolve(dir); ; path = dirname(path)) {
    try {
      if (!statSync(path).isDirectory()) return `${path} is a file, not a directory`;
      break;
    } catch {
      // Not there (or not to be looked at): its parent may be what is in the way.
    }
    if (dirname(path) === path) break;
  }
  return `${resolve(dir)} cannot be created (${error instanceof Error ? error.message : String(error)})`;
}
