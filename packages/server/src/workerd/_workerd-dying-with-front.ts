// Runs on Node, in the standalone workerd launcher's front (Linux): a workaround of a workerd quirk
// (record and deletion set: workerd/QUIRKS.md, workerd-outlives-front).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** util-linux's `setpriv`, where Debian, Ubuntu, Fedora and Arch put it. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'];

/**
 * Where util-linux's `setpriv` is installed ({@link SETPRIV}), through which
 * {@link workerdDyingWithFront} runs workerd; undefined where it is not.
 */
export function setprivPath(): string | undefined {
  return SETPRIV.find((path) => existsSync(path));
}

/** A command that runs workerd as {@link workerdDyingWithFront} says, and how to remove it. */
export interface DyingWorkerd {
  /** The command's path, for `MINIFLARE_WORKERD_PATH`. */
  readonly path: string;
  /** Removes the command and its directory (at the front's exit). */
  remove(): void;
}

/**
 * A command that runs `workerd` (its binary's path) so that Linux ends it
 * with SIGKILL when the front's process ends, however it ends. miniflare
 * stops workerd from the front's exit hooks, which a SIGKILL of the front
 * (the OOM killer's, a supervisor's) never runs, and workerd does not end
 * with its parent: it ran on, holding its memory and the D1 files, beside
 * the workerd of every later start (workers-sdk#9193). The command is a
 * shell script, in a directory of its own that only this user can read,
 * that runs workerd through util-linux's `setpriv --pdeathsig KILL`; it is
 * run once (`--version`) before it is handed over. Undefined where that
 * cannot be done (not Linux, no `setpriv`, a temporary directory that is
 * missing, read-only or mounted `noexec`, as /tmp often is): workerd then
 * runs as miniflare would run it, and outlives a killed front.
 *
 * @param workerd The binary miniflare would run.
 * @example
 * const dying = workerdDyingWithFront(defaultWorkerdBinary());
 * if (dying !== undefined) process.env['MINIFLARE_WORKERD_PATH'] = dying.path;
 */
export function workerdDyingWithFront(workerd: string): DyingWorkerd | undefined {
  if (process.platform !== 'linux') return undefined;
  const setpriv = setprivPath();
  if (setpriv === undefined) return undefined;
  let directory: string | undefined;
  try {
    directory = mkdtempSync(join(tmpdir(), 'plant-store-workerd-'));
    const path = join(directory, 'workerd');
    // exec, twice: workerd keeps the process miniflare started, its pipes (the control pipe on fd 3) and its parent.
    writeFileSync(path, `#!/bin/sh\nexec ${shellWord(setpriv)} --pdeathsig KILL -- ${shellWord(workerd)} "$@"\n`, { mode: 0o700 });
    // A script that cannot run where it lies would leave miniflare waiting, silent, for a workerd that never starts.
    const tried = spawnSync(path, ['--version'], { stdio: 'ignore', timeout: 10_000 });
    if (tried.status !== 0) throw tried.error ?? new Error(`${path} --version exited with ${tried.status}`);
    const made = directory;
    return { path, remove: () => rmSync(made, { recursive: true, force: true }) };
  } catch {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
    return undefined;
  }
}

/**
 * The workerd binary miniflare runs when `MINIFLARE_WORKERD_PATH` is unset:
 * the default export of the `workerd` package that miniflare depends on.
 */
export function defaultWorkerdBinary(): string {
  const fromHere = createRequire(import.meta.url);
  const fromMiniflare = createRequire(fromHere.resolve('miniflare'));
  return (fromMiniflare('workerd') as { readonly default: string }).default;
}

/** `text` as one word of `sh`: in single quotes, each of its own written `'\''`. */
function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
