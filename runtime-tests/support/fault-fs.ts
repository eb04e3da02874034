// Runs in the test process (Node), as root: a FUSE filesystem of the tests' own (support/faultfs.py,
// under Debian's python3-fusepy) over a directory, whose writes fail on demand with the errno the
// test names (an I/O error, a read-only disk, a full one), and whose fsyncs wait on demand.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { until } from './until.ts';

/** Debian's Python, which has the python3-fusepy package (not a pyenv or venv python3 first on PATH). */
const PYTHON = '/usr/bin/python3';
/** Where Debian's python3-fusepy puts its module. */
const FUSEPY = '/usr/lib/python3/dist-packages/fusepy.py';

/** How to get what {@link mountFaultFs} needs where the tests cannot install it. */
export const INSTALL_FAULT_FS = "run as root with /dev/fuse, and install Debian's python3-fusepy (sudo apt-get install --no-install-recommends python3-fusepy)";

/** Whether {@link mountFaultFs} can work here: root, /dev/fuse, and Debian's Python with fusepy. */
export function canMountFaultFs(): boolean {
  return process.getuid?.() === 0 && existsSync('/dev/fuse') && existsSync(PYTHON) && existsSync(FUSEPY);
}

/** A mounted fault filesystem: see {@link mountFaultFs}. */
export interface FaultFs {
  /** Makes every write, create, truncate, rename, unlink and fsync fail with `code` (`EIO`, `EROFS`, `ENOSPC`…) from now on; `undefined` lets them pass again. */
  fail(code: 'EIO' | 'EROFS' | 'ENOSPC' | undefined): void;
  /** Makes every fsync wait, and its caller with it, until `fail(undefined)`: a commit held in its sync. */
  holdSyncs(): void;
  /** Whether an fsync has waited since {@link holdSyncs}. */
  readonly syncHeld: boolean;
  /** Unmounts it (lazily, under open files) and stops its process by its pid. */
  unmount(): Promise<void>;
}

/**
 * Mounts the fault filesystem at `mountPoint` (made if absent) over `backing`
 * (made if absent), every call passing through; resolves once it is mounted.
 */
export async function mountFaultFs(backing: string, mountPoint: string): Promise<FaultFs> {
  mkdirSync(backing, { recursive: true });
  mkdirSync(mountPoint, { recursive: true });
  const control = `${backing}.fault`;
  writeFileSync(control, '');
  const script = fileURLToPath(new URL('faultfs.py', import.meta.url));
  const child: ChildProcess = spawn(PYTHON, [script, backing, mountPoint, control], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const mounted = () =>
    readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .some((line) => line.split(' ')[1] === mountPoint && line.includes(' fuse'));
  await until(() => mounted() || child.exitCode !== null, 10_000, `the fault filesystem mounted at ${mountPoint}`);
  if (!mounted()) throw new Error(`the fault filesystem did not mount: ${output}`);
  return {
    fail(code) {
      writeFileSync(control, code ?? '');
    },
    holdSyncs() {
      rmSync(`${control}.held`, { force: true });
      writeFileSync(control, 'HOLD');
    },
    get syncHeld() {
      return existsSync(`${control}.held`);
    },
    async unmount() {
      writeFileSync(control, '');
      try {
        execFileSync('umount', ['-l', mountPoint]);
      } catch {
        // Gone already.
      }
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
