// Runs on workerd: the Worker the standalone workerd launcher serves (dist/standalone/worker.js).
import { createWorker } from '../workerd/create-worker.ts';

// The Worker that `pnpm start:workerd` serves.
export default createWorker();
