// Runs on workerd, inside the Worker (`@plant-store/server/worker`): no Node API.
import type { FetchContext } from '@plant-store/adapter-fetch';
import { errorResponse } from '@plant-store/core';
import { createD1Store, type D1Database } from '@plant-store/store-d1';
import { createMemoryStore } from '@plant-store/store-memory';
import { createRqliteStore } from '@plant-store/store-rqlite';
import type { BuildOptions } from '../common/build-options.ts';
import { createStandalone, type Standalone } from '../fetch/create-standalone.ts';
import { readStandaloneConfig, type StandaloneEnv } from '../common/read-standalone-config.ts';
import { CLOSE_MARK, FRONT_MARK, HEAD_MARK } from './_front-marks.ts';

/** A Worker's bindings: the standalone variables and, where configured, the D1 database of its plants. */
export interface WorkerEnv extends StandaloneEnv {
  /** The D1 database to keep plants in; without it, plants are kept in the isolate's memory. */
  readonly PLANT_STORE_DB?: D1Database | undefined;
}

/** A module Worker: what `export default` holds for workerd and Cloudflare Workers. */
export interface PlantStoreWorker {
  fetch(request: Request, env: WorkerEnv, context: FetchContext): Promise<Response>;
}

/**
 * The store and verifier of a Worker: the rqlite cluster `PLANT_STORE_DATABASE_URL`
 * names (`rqlite://…`, reached with the Worker's own `fetch`), else D1 when the
 * `PLANT_STORE_DB` binding is configured, else the memory store, which keeps
 * plants per isolate and loses them when it goes (fit only for trying it out).
 */
const workerBuild: BuildOptions = (config, env) => {
  const db = (env as WorkerEnv).PLANT_STORE_DB;
  const store = config.store.kind === 'rqlite' ? createRqliteStore({ urls: config.store.urls }) : db === undefined ? createMemoryStore() : createD1Store(db);
  return { store, authenticate: config.authenticate };
};

/** How often at most a Worker whose settings are wrong says so: every request meets the fault, the log need not. */
export const SETTINGS_FAULT_LOG_INTERVAL_MS = 60_000;

// What every request to a Worker whose settings are wrong is answered: the Error body, nothing of the cause.
const MISCONFIGURED = errorResponse('internal', 'internal error');

// A Worker has no start to print a made token at, and each isolate would make one of its own, which no client could know.
const NOT_BOUND =
  'PLANT_STORE_TOKENS: not bound; bind the accepted tokens, comma-separated, as a secret, or PLANT_STORE_JWT_ISSUER and its companions to verify JWTs';

/**
 * Plant Store as a module Worker for workerd. A Worker sees its bindings only
 * with a request, so the handler is built on the first one and lives as long
 * as the isolate. Plants are kept in the D1 database bound as `PLANT_STORE_DB`
 * (the standalone workerd server binds one), or, without that binding, in the
 * isolate's memory. Overload protection bounds the requests in flight in
 * the isolate (`PLANT_STORE_MAX_IN_FLIGHT`); its event-loop bound is off,
 * since time stands still inside a request.
 *
 * Bindings it cannot serve with (no tokens, an empty `PLANT_STORE_TOKENS`, a
 * setting out of range) answer every request 500 with the Error body, and
 * are said in one line on the console naming the binding, at most once
 * every {@link SETTINGS_FAULT_LOG_INTERVAL_MS} per isolate.
 *
 * @param build Replaces the store and verifier (test fixtures inject faults).
 */
export function createWorker(build: BuildOptions = workerBuild): PlantStoreWorker {
  let standalone: Standalone | undefined;
  let fault: string | undefined;
  let faultSaidAt = -Infinity;
  return {
    fetch(request, env, context) {
      if (standalone === undefined && fault === undefined) {
        try {
          // Inside a workerd request time stands still, so no event-loop delay can be sampled: only the
          // in-flight bound applies, per isolate (the standalone workerd server samples in its front).
          const settings = { ...env, PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS: '0' };
          const config = readStandaloneConfig(settings);
          if (config.generatedToken !== undefined) fault = NOT_BOUND;
          else standalone = createStandalone(settings, (line) => console.log(line), build, config);
        } catch (error) {
          fault = error instanceof Error ? error.message : String(error);
        }
      }
      if (standalone !== undefined) {
        if (!request.headers.has(FRONT_MARK)) return standalone.fetch(request, context);
        // A HEAD of the metrics the front asked as GET (HEAD_MARK): counted as the HEAD it is, its body still sent.
        // A new request of the same URL and headers: workerd refuses one built from a GET whose (empty) body it holds.
        const asked =
          request.method === 'GET' && request.headers.has(HEAD_MARK) ? new Request(request.url, { method: 'HEAD', headers: request.headers }) : request;
        return standalone.fetch(asked, context).then(markClose);
      }
      // Time stands still within a request, but moves between them.
      const now = Date.now();
      if (now - faultSaidAt >= SETTINGS_FAULT_LOG_INTERVAL_MS) {
        faultSaidAt = now;
        console.error(`plant-store: ${fault}`);
      }
      return Promise.resolve(new Response(MISCONFIGURED.body, { status: MISCONFIGURED.status, headers: MISCONFIGURED.headers }));
    },
  };
}

/** An answer that closes its connection, marked so for the front (whose view of `Connection` workerd takes away). */
function markClose(response: Response): Response {
  if (response.headers.get('connection') === 'close') response.headers.set(CLOSE_MARK, 'close');
  return response;
}
