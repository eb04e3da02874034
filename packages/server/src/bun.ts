// The `@plant-store/server/bun` entry: runs on Bun.
export { runBun } from './bun/run-bun.ts';
export { withRequestDeadline } from './bun/with-request-deadline.ts';

export type { DeadlineFetch, RequestDeadlineOptions } from './bun/with-request-deadline.ts';
export type { BuildOptions } from './common/build-options.ts';
