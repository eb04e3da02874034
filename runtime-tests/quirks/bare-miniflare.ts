// Runs on Node 24 (miniflare, no Plant Store code), for runtime-tests/quirks.test.ts's workerd-outlives-front
// canary: a Worker of a few lines under miniflare, with V8's and miniflare's defaults; prints `ready` once workerd
// serves. The canary kills this process with SIGKILL and watches what becomes of its workerd.
import { Miniflare } from 'miniflare';

const miniflare = new Miniflare({ modules: true, script: 'export default { fetch: () => new Response("ok") };', compatibilityDate: '2026-07-01' });
const answer = await (await miniflare.dispatchFetch('http://bare/')).text();
console.log(answer === 'ok' ? 'ready' : `not ready: ${answer}`);
