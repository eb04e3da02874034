import { fileURLToPath } from 'node:url';
import { runWorkerd } from '../run-workerd.ts';
import { stopOnStartError } from '../stop-on-start-error.ts';

// The standalone workerd server: `pnpm start:workerd` serves the Worker built beside this file.
runWorkerd(fileURLToPath(new URL('./worker.js', import.meta.url))).catch(stopOnStartError);
