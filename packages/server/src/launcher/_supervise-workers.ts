// Runs in the supervisor process of a Node, Bun or Deno server with PLANT_STORE_WORKERS.
import { isSqliteAvailable } from '@plant-store/store-sqlite';
import { formatLogRecords, type LogRecord } from '../common/_format-log-records.ts';
import { writeLogRecords } from '../common/_write-log-records.ts';
import type { StandaloneConfig } from '../common/read-standalone-config.ts';
import { SHUTDOWN_TIMINGS } from '../common/shutdown-timings.ts';
import { generatedTokenLine } from '../common/startup-lines.ts';

/** What a worker tells its supervisor once it listens: where, and what to print at start. */
export interface ListeningMessage {
  readonly type: 'plant-store:listening';
  /** Where it listens, e.g. `http://127.0.0.1:8080`: the port the others take when the first was given port 0. */
  readonly url: string;
  readonly records: readonly LogRecord[];
}

/** Whether `message` is a {@link ListeningMessage}; other messages may share the channel. */
export function isListeningMessage(message: unknown): message is ListeningMessage {
  return (message as ListeningMessage | null)?.type === 'plant-store:listening';
}

/** One worker process, as its supervisor handles it. */
export interface WorkerProcess {
  readonly pid: number | undefined;
  kill(signal: 'SIGTERM' | 'SIGKILL' | 'SIGHUP'): void;
}

/** What a worker process tells its supervisor. */
export interface WorkerEvents {
  listening(message: ListeningMessage): void;
  /** It ended: its exit code, or the signal that ended it. */
  exit(code: number | null, signal: string | null): void;
}

/** Starts one worker process, with `env` on top of the supervisor's environment. */
export type SpawnWorker = (env: Readonly<Record<string, string>>, events: WorkerEvents) => WorkerProcess;

/** Options of {@link superviseWorkers}. */
export interface SuperviseOptions {
  /**
   * Whether each worker opens its own socket on the port (SO_REUSEPORT), so
   * that workers started after the first must be told the port it got when
   * `PORT` was 0. node:cluster shares the first one's socket instead.
   */
  readonly ownSockets: boolean;
}

/**
 * Runs `config.workers` processes of a standalone server on one port, over
 * one store they share: SQLite (one file, one writer at a time) or
 * PostgreSQL. The supervisor serves nothing itself: it starts one worker,
 * and the others once that one listens (a setting that cannot work is then
 * said once, and the first start makes a new SQLite file's schema before the
 * others open it); it prints the first one's startup lines once, with
 * " with N processes"; it replaces a worker that dies (after a pause growing
 * to 30 s while replacements keep failing to start); and on SIGINT/SIGTERM it
 * asks every worker to drain, then exits 0 once they have. When the first
 * worker cannot start, it exits 1, as a single process with that setting would.
 *
 * @param spawn Starts a worker process: node:cluster on Node, a child process on Bun and Deno.
 * @throws Error when the store would be the memory store, which processes cannot share.
 */
export async function superviseWorkers(config: StandaloneConfig, spawn: SpawnWorker, options: SuperviseOptions): Promise<void> {
  if (config.store.kind === 'default' && !(await isSqliteAvailable())) {
    throw new Error(
      `PLANT_STORE_WORKERS: ${config.workers} processes need a store they share; this runtime has no built-in SQLite, so set PLANT_STORE_DATABASE_URL=postgres://…`,
    );
  }
  // A made token must be the same in every worker.
  const env: Record<string, string> = config.generatedToken === undefined ? {} : { PLANT_STORE_TOKENS: config.generatedToken };
  const workers = new Set<WorkerProcess>();
  let stopping = false;
  let announced = false;
  /** Replacements in a row that ended before listening, for the backoff. */
  let failedStarts = 0;

  /** The port the first worker got when `PORT` was 0. */
  let pickedPort: string | undefined;

  const start = (): void => {
    // node:cluster keys the socket its workers share by the port they ask for, and closes it with the last of them:
    // once none is left, the next asks for the port the first got (free again), not for another from the kernel.
    if (!options.ownSockets && pickedPort !== undefined && workers.size === 0) env['PORT'] = pickedPort;
    let listened = false;
    let worker: WorkerProcess | undefined;
    const ended = (why: string) => {
      if (worker !== undefined) workers.delete(worker);
      if (stopping) {
        if (workers.size === 0) process.exit(0);
        return;
      }
      // The first worker could not start: a setting that cannot work (an
      // unopenable file, a refused port) would fail every other the same way.
      // It has said why in one line; the start stops, as without workers.
      if (!announced) process.exit(1);
      // Later, a worker that cannot start (the database away) is tried again
      // with a growing pause, up to 30 s, rather than forty times a second.
      const delayMs = listened ? 0 : Math.min(30_000, 250 * 2 ** failedStarts++);
      const msg = `plant-store: worker ${worker?.pid ?? '(none)'} ended (${why}); starting another${delayMs > 0 ? ` in ${delayMs} ms` : ''}`;
      console.error(formatLogRecords([{ level: 'error', msg }], config.logFormat));
      setTimeout(() => {
        if (!stopping) start();
      }, delayMs);
    };
    const events: WorkerEvents = {
      listening(message) {
        listened = true;
        failedStarts = 0;
        if (announced) {
          // A replacement that asked for port 0 just after node:cluster closed the socket with the last worker (their
          // exits told here a turn apart) got another port from the kernel: it is ended, and the next asks for ours.
          if (!options.ownSockets && pickedPort !== undefined && new URL(message.url).port !== pickedPort) {
            env['PORT'] = pickedPort;
            worker?.kill('SIGTERM');
          }
          return;
        }
        announced = true;
        // Only a port the kernel picked needs telling (a default port, 80, has none in the URL).
        if (config.port === 0) pickedPort = new URL(message.url).port;
        if (options.ownSockets && pickedPort !== undefined) env['PORT'] = pickedPort;
        // Told to stop while the first was starting: no others.
        if (!stopping) for (let i = 1; i < config.workers; i++) start();
        const [first, ...rest] = message.records;
        if (first === undefined) return;
        // Workers were handed the made token as if configured, so only the supervisor knows to print it.
        const token: LogRecord[] = config.generatedToken === undefined ? [] : [{ level: 'warn', msg: generatedTokenLine(config.generatedToken) }];
        const listening: LogRecord = { ...first, msg: `${first.msg} with ${config.workers} processes`, fields: { ...first.fields, workers: config.workers } };
        writeLogRecords([listening, ...rest, ...token], config);
      },
      exit: (code, signal) => ended(String(signal ?? code)),
    };
    try {
      worker = spawn(env, events);
    } catch (error) {
      // No process to wait for (the binary gone, no processes or descriptors left): a failed start.
      const why = `not started: ${error instanceof Error ? error.message : String(error)}`;
      if (!announced)
        console.error(
          formatLogRecords([{ level: 'error', msg: `plant-store: PLANT_STORE_WORKERS: a process could not be started (${why})` }], config.logFormat),
        );
      ended(why);
      return;
    }
    workers.add(worker);
  };
  start();

  // SIGHUP rereads the TLS certificate: each worker serves with its own copy. Without TLS it
  // is left alone (it ends the supervisor, as it ends a process of one).
  if (config.tls !== undefined) process.on('SIGHUP', () => workers.forEach((worker) => worker.kill('SIGHUP')));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      // Between a worker's end and its delayed replacement there may be none to wait for.
      if (workers.size === 0) process.exit(0);
      for (const worker of workers) worker.kill('SIGTERM');
      // Workers drain within the shutdown timeout; past it, whatever is left is ended.
      setTimeout(() => {
        for (const worker of workers) worker.kill('SIGKILL');
        process.exit(0);
      }, SHUTDOWN_TIMINGS.timeoutMs + SHUTDOWN_TIMINGS.graceMs).unref();
    });
  }
}
