// Runs on Node: the primary of a `plant-store` command with PLANT_STORE_WORKERS (node:cluster).
import cluster from 'node:cluster';
import type { StandaloneConfig } from '../common/read-standalone-config.ts';
import { isListeningMessage, superviseWorkers, type SpawnWorker } from '../launcher/_supervise-workers.ts';

/**
 * Runs `config.workers` processes of the standalone Node server on one port
 * with node:cluster, as {@link superviseWorkers} describes: the primary
 * listens on the port once and every worker accepts on that one socket (the
 * kernel spreads connections), which works on every Node version.
 *
 * @throws Error when the store would be the memory store, which processes cannot share.
 */
export function runCluster(config: StandaloneConfig): Promise<void> {
  // Each worker accepts on the shared socket itself; a primary that hands out
  // every connection would be the bottleneck.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  return superviseWorkers(config, forkWorker, { ownSockets: false });
}

const forkWorker: SpawnWorker = (env, events) => {
  const worker = cluster.fork(env);
  worker.on('message', (message: unknown) => {
    if (isListeningMessage(message)) events.listening(message);
  });
  worker.on('exit', (code, signal) => events.exit(code, signal));
  return { pid: worker.process.pid, kill: (signal) => worker.process.kill(signal) };
};
