// The `@plant-store/server/worker` entry: runs on workerd, inside the Worker.
export { createWorker } from './workerd/create-worker.ts';

export type { BuildOptions } from './common/build-options.ts';
export type { PlantStoreWorker, WorkerEnv } from './workerd/create-worker.ts';
