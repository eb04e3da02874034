// Runs on Node: the `plant-store` command, and each of its cluster workers.
import cluster from 'node:cluster';
import type { BuildOptions } from '../common/build-options.ts';
import { runCluster } from './_run-cluster.ts';
import { openServed } from '../launcher/_open-served.ts';
import { writeLogRecords } from '../common/_write-log-records.ts';
import { writesLevel } from '../common/_log-level.ts';
import { logWarningsAsJson } from './_log-warnings-as-json.ts';
import { logUnhandledRejections } from '../launcher/log-unhandled-rejections.ts';
import { readStandaloneConfig, type StandaloneEnv } from '../common/read-standalone-config.ts';
import { serveStandalone } from '../node-http/_serve-standalone.ts';
import { startupRecords } from '../common/startup-lines.ts';
import { stopOnStartError } from '../launcher/_stop-on-start-error.ts';
import { keepTlsPairFresh, readTlsPair } from '../launcher/_tls-pair.ts';
import type { ListeningMessage } from '../launcher/_supervise-workers.ts';
import { warnUnknownVariables } from '../launcher/_warn-unknown-variables.ts';

/**
 * Runs the standalone server on Node (`pnpm start`, the `plant-store` command):
 * settings from the environment (docs/contract.md, "Standalone runs"), the
 * store `PLANT_STORE_DATABASE_URL` names (docs/contract.md, "Stores"), and on
 * SIGINT/SIGTERM a graceful stop, then exit 0; with `PLANT_STORE_WORKERS=N`,
 * N such processes on one port ({@link runCluster}). A setting that cannot
 * work, or an address it cannot listen on, stops the start with one line and
 * exit 1; a `PLANT_STORE_*` variable it does not read gets a warning first.
 *
 * @param build What to serve instead of the configured store and tokens (test fixtures).
 */
export async function runNode(build?: BuildOptions): Promise<void> {
  const env = process.env as StandaloneEnv;
  try {
    // The primary has warned already: cluster workers share its environment.
    if (cluster.isPrimary) warnUnknownVariables(Object.keys(env), 'Node', env);
    const config = readStandaloneConfig(env);
    // The runtime's warnings at level warn: as JSON in the JSON format, and not at all below warn.
    if (config.logFormat === 'json' || !writesLevel(config.logLevel, 'warn')) logWarningsAsJson(writesLevel(config.logLevel, 'warn'));
    // Before the store opens, and in the primary before any worker starts: a pair that cannot serve stops the start at once.
    const tls = config.tls === undefined ? undefined : readTlsPair(config.tls);
    // SIGHUP rereads the pair once serving; until then it must not end the process (a
    // supervisor passes it on to every worker, started or not).
    if (tls !== undefined) process.on('SIGHUP', () => {});
    if (config.workers > 1 && cluster.isPrimary) return await runCluster(config);
    // A worker whose primary is gone cannot tell it anything (EPIPE); it exits on the
    // disconnect that follows, instead of crashing with a stack trace.
    cluster.worker?.on('error', () => {});
    logUnhandledRejections(config.logFormat);
    const served = await openServed(config, env, build);
    const running = await serveStandalone(config, served, false, tls?.pair);
    keepTlsPairFresh(config, tls, running);
    // Listening for signals before saying it listens: whoever reads that line may
    // signal at once (a test, a supervisor), and until a listener is there a signal
    // ends the process at once. On every signal, not once: npm and pnpm pass a
    // terminal's Ctrl-C on to the server, which got it already with its process
    // group, and a second SIGINT without a listener would end the drain.
    let stopping = false;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (stopping) return;
        stopping = true;
        void running
          .close()
          .then(() => served.close())
          .then(() => process.exit(0));
      });
    }
    const records = [...startupRecords(config, running.url, served.store), ...(tls?.warnings ?? [])];
    // A worker of several tells the primary, which prints one startup block for all.
    if (cluster.isWorker) process.send?.({ type: 'plant-store:listening', url: running.url, records } satisfies ListeningMessage);
    else writeLogRecords(records, config);
  } catch (error) {
    stopOnStartError(error, env);
  }
}
