export { createWorker } from './create-worker.ts';

export type { BuildOptions } from './build-options.ts';
export type { PlantStoreWorker, WorkerEnv } from './create-worker.ts';
