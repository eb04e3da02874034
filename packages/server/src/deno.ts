export { runDeno } from './run-deno.ts';

export type { BuildOptions } from './create-standalone.ts';
