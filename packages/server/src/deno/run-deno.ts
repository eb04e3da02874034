// Runs on Deno: the standalone Deno launcher and each of its worker processes.
import { denoWorkerPermissions } from './_deno-worker-permissions.ts';
import { formatLogRecords } from '../common/_format-log-records.ts';
import { writeLogRecords } from '../common/_write-log-records.ts';
import { logUnhandledRejections } from '../launcher/log-unhandled-rejections.ts';
import type { BuildOptions } from '../common/build-options.ts';
import { openServed } from '../launcher/_open-served.ts';
import { readStandaloneConfig, type StandaloneEnv } from '../common/read-standalone-config.ts';
import { keepTlsPairFresh, readTlsPair } from '../launcher/_tls-pair.ts';
import { serveStandalone } from '../node-http/_serve-standalone.ts';
import { spawnDenoWorker, tellDenoSupervisor, whenDenoSupervisorEnds } from './_spawn-deno-worker.ts';
import { STANDALONE_VARIABLES, WORKER_OF } from '../common/_standalone-variables.ts';
import { startupRecords } from '../common/startup-lines.ts';
import { stopOnStartError } from '../launcher/_stop-on-start-error.ts';
import { superviseWorkers } from '../launcher/_supervise-workers.ts';
import { warnUnknownVariables } from '../launcher/_warn-unknown-variables.ts';
import { watchAccepting } from './_watch-accepting.ts';
import { watchSharedAccepting } from './_watch-shared-accepting.ts';

declare const Deno: {
  env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  permissions: { querySync(descriptor: { name: 'env'; variable?: string } | { name: 'run'; command: string }): { readonly state: string } };
  readonly mainModule: string;
  execPath(): string;
  addSignalListener(signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP', listener: () => void): void;
  exit(code: number): never;
};

/** The only variables read (workerd's own left out); Deno runs with `--allow-env` for exactly these. */
const VARIABLES = STANDALONE_VARIABLES.filter((variable) => variable.only?.includes('Deno') ?? true).map((variable) => variable.name);

/**
 * Variables added after `--allow-env` lists naming the others were in use:
 * where such a list leaves one out, it is not read (its default applies)
 * rather than stopping a start that worked before.
 */
const NEWER_VARIABLES: ReadonlySet<string> = new Set(['PLANT_STORE_WRITE_TIMEOUT_MS', 'PLANT_STORE_TLS_CERT', 'PLANT_STORE_TLS_KEY', 'PLANT_STORE_TLS_PROXY']);

/**
 * Serves Plant Store standalone on Deno (`pnpm start:deno`, or `runDeno()` from
 * `@plant-store/server/deno`): the same settings, stores, access log and
 * graceful stop as on Node, through the same {@link serve}.
 *
 * It serves with Deno's `node:http`, not `Deno.serve`: that server has the
 * headers, request and keep-alive timeouts `Deno.serve` lacks, so slow and
 * idle clients are cut as on Node, and requests it cannot read are answered
 * with the Error body, byte for byte as on Node (docs/contract.md, "Known
 * differences between runtimes"). Its accept loop can stop for good once file
 * descriptors ran out; {@link watchAccepting} opens the listener again
 * ({@link watchSharedAccepting} when several processes share the port).
 *
 * With `PLANT_STORE_WORKERS=N`, N such processes serve the port, each on its
 * own socket (`reusePort`, SO_REUSEPORT: the kernel spreads connections),
 * supervised as {@link superviseWorkers} describes. This process starts the
 * others as `deno run` of the same main module ({@link spawnDenoWorker}), so
 * it needs `--allow-run` for Deno's own binary; they get the permissions the
 * server uses, as far as this one has them ({@link denoWorkerPermissions}),
 * and no other Deno flag.
 *
 * A `PLANT_STORE_*` variable it does not read gets a warning, when Deno lets
 * it list the environment (`--allow-env` whole); with `--allow-env` for named
 * variables only, it cannot tell, and says nothing.
 *
 * @param build What to serve instead of the configured store and tokens (test fixtures).
 * @param extraVariables More variables `build` reads (each needs `--allow-env`).
 */
export async function runDeno(build?: BuildOptions, extraVariables: readonly string[] = []): Promise<void> {
  const read: Record<string, string | undefined> = {};
  const env = read as StandaloneEnv;
  try {
    for (const name of [...VARIABLES, ...extraVariables]) {
      if (NEWER_VARIABLES.has(name) && Deno.permissions.querySync({ name: 'env', variable: name }).state !== 'granted') continue;
      read[name] = Deno.env.get(name);
    }
    // Read only where it may be: a process not started as a worker is not granted it.
    const supervised = Deno.permissions.querySync({ name: 'env', variable: WORKER_OF }).state === 'granted' && Deno.env.get(WORKER_OF) !== undefined;
    // Its supervisor has warned already. Listing every name needs the whole of --allow-env: asked, Deno would throw (or prompt).
    if (!supervised && Deno.permissions.querySync({ name: 'env' }).state === 'granted') warnUnknownVariables(Object.keys(Deno.env.toObject()), 'Deno', env);
    const config = readStandaloneConfig(env);
    // Before the store opens, and in the supervisor before any worker starts: a pair that cannot serve stops the start at once.
    const tls = config.tls === undefined ? undefined : readTlsPair(config.tls);
    // SIGHUP rereads the pair once serving; until then it must not end the process (the
    // supervisor passes it on to every worker, started or not).
    if (tls !== undefined) Deno.addSignalListener('SIGHUP', () => {});
    if (config.workers > 1 && !supervised) {
      if (Deno.permissions.querySync({ name: 'run', command: Deno.execPath() }).state !== 'granted') {
        throw new Error(`PLANT_STORE_WORKERS: starting ${config.workers} processes on Deno needs --allow-run=${Deno.execPath()}`);
      }
      const args = ['run', ...denoWorkerPermissions(config, [...VARIABLES, ...extraVariables]), Deno.mainModule];
      return await superviseWorkers(config, spawnDenoWorker(args), { ownSockets: true });
    }
    logUnhandledRejections(config.logFormat);
    const served = await openServed(config, env, build);
    const running = await serveStandalone(config, served, config.workers > 1, tls?.pair);
    const stopWatchingTls = keepTlsPairFresh(config, tls, running);
    const records = [...startupRecords(config, running.url, served.store), ...(tls?.warnings ?? [])];
    if (supervised) tellDenoSupervisor({ type: 'plant-store:listening', url: running.url, records });
    else writeLogRecords(records, config);
    // With several processes on the port, a check connection may be taken by any of them.
    const watch = config.workers > 1 ? watchSharedAccepting : watchAccepting;
    const stopWatching = watch(running.server, config.host, Number(new URL(running.url).port), () => {
      const msg = 'plant-store: the server stopped accepting connections (file descriptors ran out?); listening again';
      console.error(formatLogRecords([{ level: 'error', msg }], config.logFormat));
    });
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      stopWatching();
      stopWatchingTls();
      void running
        .close()
        .then(() => served.close())
        .then(() => Deno.exit(0));
    };
    Deno.addSignalListener('SIGINT', stop);
    Deno.addSignalListener('SIGTERM', stop);
    // A worker whose supervisor is gone (even killed) stops too, rather than serving on unsupervised.
    if (supervised) whenDenoSupervisorEnds(stop);
  } catch (error) {
    stopOnStartError(error, env);
  }
}
