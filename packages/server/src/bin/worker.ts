import { createWorker } from '../workerd/create-worker.ts';

// The Worker that `pnpm start:workerd` serves.
export default createWorker();
