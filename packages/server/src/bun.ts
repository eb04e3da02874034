export { runBun } from './bun/run-bun.ts';

export type { BuildOptions } from './shared/build-options.ts';
