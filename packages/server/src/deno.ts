// The `@plant-store/server/deno` entry: runs on Deno.
export { runDeno } from './deno/run-deno.ts';

export type { BuildOptions } from './common/build-options.ts';
