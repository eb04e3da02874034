export { runBun } from './run-bun.ts';

export type { BuildOptions } from './create-standalone.ts';
