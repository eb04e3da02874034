export { runDeno } from './run-deno.ts';

export type { BuildOptions } from './build-options.ts';
