export { createWorker } from './create-worker.ts';

export type { BuildOptions } from './create-standalone.ts';
export type { PlantStoreWorker, WorkerEnv } from './create-worker.ts';
