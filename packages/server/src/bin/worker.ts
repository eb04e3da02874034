import { createWorker } from '../create-worker.ts';

// The Worker that `pnpm start:workerd` serves.
export default createWorker();
