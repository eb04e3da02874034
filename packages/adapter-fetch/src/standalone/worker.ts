import { createWorker } from './create-worker.ts';

export default createWorker();
