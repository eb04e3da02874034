import { spawn } from 'node:child_process';
import { isListeningMessage, WORKER_OF, type SpawnWorker } from './supervise-workers.ts';

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
    child.on('exit', (code, signal) => events.exit(code, signal));
    // A failed spawn ends in 'exit' too (code -2 or the like); only its error event must not go unhandled.
    child.on('error', () => {});
    return { pid: child.pid, kill: (signal) => child.kill(signal) };
  };
}
