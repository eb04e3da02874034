import type { FetchContext } from '@plant-store/adapter-fetch';
import { createStandalone, type BuildOptions, type Standalone } from './create-standalone.ts';
import type { StandaloneEnv } from './read-standalone-config.ts';

/** A module Worker: what `export default` holds for workerd and Cloudflare Workers. */
export interface PlantStoreWorker {
  fetch(request: Request, env: StandaloneEnv, context: FetchContext): Promise<Response>;
}

/**
 * Plant Store as a module Worker for workerd. A Worker sees its variables only
 * with a request, so the handler is built on the first one; the memory store
 * then lives as long as the isolate.
 */
export function createWorker(build?: BuildOptions): PlantStoreWorker {
  let standalone: Standalone | undefined;
  return {
    fetch(request, env, context) {
      standalone ??= createStandalone(env, (line) => console.log(line), build);
      return standalone.fetch(request, context);
    },
  };
}
