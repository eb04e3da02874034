export { runDeno } from './deno/run-deno.ts';

export type { BuildOptions } from './shared/build-options.ts';
