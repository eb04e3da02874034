// Runs on Deno: the supervisor of a Deno server with PLANT_STORE_WORKERS, and each worker it starts.
import { isListeningMessage, type ListeningMessage, type SpawnWorker } from '../launcher/_supervise-workers.ts';
import { WORKER_OF } from '../common/_standalone-variables.ts';

interface DenoChild {
  readonly pid: number;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<{ readonly code: number; readonly signal: string | null }>;
  kill(signal: 'SIGTERM' | 'SIGKILL' | 'SIGHUP'): void;
}
declare const Deno: {
  readonly pid: number;
  readonly stdin: { readonly readable: ReadableStream<Uint8Array> };
  execPath(): string;
  Command: new (
    command: string,
    options: { args: string[]; env: Record<string, string>; stdin: 'piped'; stdout: 'inherit'; stderr: 'piped' },
  ) => { spawn(): DenoChild };
};

/**
 * Starts the worker processes of a Deno server with `PLANT_STORE_WORKERS`:
 * `deno args…` with `Deno.Command`, in the supervisor's environment (which
 * Deno passes on without the supervisor reading it) plus `env`, and
 * `PLANT_STORE_WORKER_OF` to mark it. Deno's `node:child_process` would
 * need to read the whole environment (and `NODE_V8_COVERAGE`) to pass it
 * on, hence Deno's own API, which has no message channel: a worker writes
 * its {@link ListeningMessage} as one line on standard error
 * ({@link tellDenoSupervisor}), which the supervisor reads and passes the
 * rest of on. Each worker's standard input is a pipe from the supervisor
 * that nothing is written to: it ends when the supervisor does, however it
 * ends ({@link whenDenoSupervisorEnds}).
 */
export function spawnDenoWorker(args: readonly string[]): SpawnWorker {
  return (env, events) => {
    const command = new Deno.Command(Deno.execPath(), {
      args: [...args],
      env: { ...env, [WORKER_OF]: String(Deno.pid) },
      stdin: 'piped',
      stdout: 'inherit',
      stderr: 'piped',
    });
    const child = command.spawn();
    const relayed = relayStderr(child.stderr, events.listening);
    // After its last line: a worker that could not start has said why before the supervisor acts on its end.
    void Promise.all([child.status, relayed]).then(([status]) => events.exit(status.signal === null ? status.code : null, status.signal));
    return {
      pid: child.pid,
      kill(signal) {
        try {
          child.kill(signal);
        } catch {
          // It has ended already.
        }
      },
    };
  };
}

/** Writes, in a worker, the line its Deno supervisor reads as a {@link ListeningMessage}. */
export function tellDenoSupervisor(message: ListeningMessage): void {
  process.stderr.write(`${JSON.stringify(message)}\n`);
}

/** Calls `then` once, in a worker, when its Deno supervisor has ended (its standard input closes). */
export function whenDenoSupervisorEnds(then: () => void): void {
  void (async () => {
    const reader = Deno.stdin.readable.getReader();
    try {
      while (!(await reader.read()).done);
    } catch {
      // Closed all the same.
    }
    then();
  })();
}

/** Passes a worker's standard error on, line by line, except the line that says it listens. */
async function relayStderr(stderr: ReadableStream<Uint8Array>, listening: (message: ListeningMessage) => void): Promise<void> {
  const line = (text: string) => {
    if (text.startsWith('{') && text.includes('"plant-store:listening"')) {
      try {
        const message: unknown = JSON.parse(text);
        if (isListeningMessage(message)) return listening(message);
      } catch {
        // Not the message after all.
      }
    }
    process.stderr.write(`${text}\n`);
  };
  const reader = stderr.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The pipe broke: the worker has ended.
      break;
    }
    if (chunk.done) break;
    pending += decoder.decode(chunk.value, { stream: true });
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      line(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
  }
  pending += decoder.decode();
  if (pending !== '') line(pending);
}
