import cluster, { type Worker } from 'node:cluster';
import { isSqliteAvailable } from '@plant-store/store-sqlite';
import { formatLogRecords, type LogRecord } from './format-log-records.ts';
import type { StandaloneConfig } from './read-standalone-config.ts';
import { SHUTDOWN_TIMINGS } from './shutdown-timings.ts';
import { generatedTokenLine } from './startup-lines.ts';

/** What a worker tells the primary once it listens: what to print at start. */
export interface ListeningMessage {
  readonly type: 'plant-store:listening';
  readonly records: readonly LogRecord[];
}

/**
 * Runs `config.workers` processes of the standalone Node server on one port
 * (node:cluster; the kernel spreads connections), over one store they share:
 * SQLite (one file, one writer at a time) or PostgreSQL. The primary serves
 * nothing itself: it starts the workers, prints the first one's startup lines
 * once, replaces a worker that dies (after a growing pause when replacements
 * keep failing to start), and on SIGINT/SIGTERM asks every worker to drain,
 * then exits 0 once they have. When no worker could start at all, it stops
 * the others and exits 1, as a single process with that setting would.
 *
 * @throws Error when the store would be the memory store, which processes cannot share.
 */
export async function runCluster(config: StandaloneConfig): Promise<void> {
  if (config.store.kind === 'default' && !(await isSqliteAvailable())) {
    throw new Error(
      `PLANT_STORE_WORKERS: ${config.workers} processes need a store they share; this runtime has no built-in SQLite, so set PLANT_STORE_DATABASE_URL=postgres://…`,
    );
  }
  // Each worker accepts on the shared socket itself; a primary that hands out
  // every connection would be the bottleneck.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  // A made token must be the same in every worker.
  const env = config.generatedToken === undefined ? {} : { PLANT_STORE_TOKENS: config.generatedToken };
  let stopping = false;
  let announced = false;
  /** Workers that have listened; one that ends before it did could not start. */
  const listened = new WeakSet<Worker>();
  /** Replacements in a row that ended before listening, for the backoff. */
  let failedStarts = 0;

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    worker.on('message', (message: ListeningMessage) => {
      if (message?.type !== 'plant-store:listening') return;
      listened.add(worker);
      failedStarts = 0;
      if (announced) return;
      announced = true;
      // Told to stop while the first was starting: no others.
      if (!stopping) for (let i = 1; i < config.workers; i++) fork();
      const [first, ...rest] = message.records;
      if (first === undefined) return;
      // Workers were handed the made token as if configured, so only the primary knows to print it.
      const token: LogRecord[] = config.generatedToken === undefined ? [] : [{ level: 'warn', msg: generatedTokenLine(config.generatedToken) }];
      const listening: LogRecord = { ...first, msg: `${first.msg} with ${config.workers} processes`, fields: { ...first.fields, workers: config.workers } };
      console.log(formatLogRecords([listening, ...rest, ...token], config.logFormat));
    });
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // The first worker could not start: a setting that cannot work (an
    // unopenable file, a refused port) would fail every other the same way.
    // It has said why in one line; the start stops, as without workers.
    if (!announced) process.exit(1);
    // Later, a worker that cannot start (the database away) is tried again
    // with a growing pause, up to 30 s, rather than forty times a second.
    const delayMs = listened.has(worker) ? 0 : Math.min(30_000, 250 * 2 ** failedStarts++);
    console.error(
      formatLogRecords(
        [
          {
            level: 'error',
            msg: `plant-store: worker ${worker.process.pid} ended (${signal ?? code}); starting another${delayMs > 0 ? ` in ${delayMs} ms` : ''}`,
          },
        ],
        config.logFormat,
      ),
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, delayMs);
  });
  // One worker first, the others once it listens: a setting that cannot work
  // is then said once, by one worker, and the first start makes a new SQLite
  // file's schema before the others open it.
  fork();

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      // Between a worker's end and its delayed replacement there may be none to wait for.
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      // Workers drain within the shutdown timeout; past it, whatever is left is ended.
      setTimeout(() => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
        process.exit(0);
      }, SHUTDOWN_TIMINGS.timeoutMs + SHUTDOWN_TIMINGS.graceMs).unref();
    });
  }
}
