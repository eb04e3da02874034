// Runs on Bun (through its node:child_process): the supervisor of a Bun server with PLANT_STORE_WORKERS.
import { spawn } from 'node:child_process';
import { isListeningMessage, type SpawnWorker } from '../launcher/_supervise-workers.ts';
import { WORKER_OF } from '../common/_standalone-variables.ts';

/**
 * Starts the worker processes of a server with `PLANT_STORE_WORKERS` with
 * `node:child_process` (Bun): `command args…`, in this process's environment
 * plus `env`, with `PLANT_STORE_WORKER_OF` to mark it, sharing standard
 * output and error, and an IPC channel on which it sends its
 * {@link ListeningMessage}. A worker sees the channel close
 * (`process.on('disconnect')`) when its supervisor ends, however it ends.
 */
export function spawnIpcWorker(command: string, args: readonly string[]): SpawnWorker {
  return (env, events) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env, [WORKER_OF]: String(process.pid) } });
    child.on('message', (message: unknown) => {
      if (isListeningMessage(message)) events.listening(message);
    });
    // Told once: a failed spawn (ENOENT, EAGAIN) emits 'error' and no 'exit'.
    let told = false;
    const exit = (code: number | null, signal: string | null) => {
      if (told) return;
      told = true;
      events.exit(code, signal);
    };
    child.on('exit', exit);
    child.on('error', () => exit(null, null));
    return { pid: child.pid, kill: (signal) => child.kill(signal) };
  };
}
