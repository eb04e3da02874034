export { runBun } from './run-bun.ts';

export type { BuildOptions } from './build-options.ts';
