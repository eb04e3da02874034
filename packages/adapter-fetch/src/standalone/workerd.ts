import { serveWorkerd, WORKER_SCRIPT } from './serve-workerd.ts';

serveWorkerd(process.argv[2] ?? WORKER_SCRIPT).catch((error: unknown) => {
  console.error(`plant-store: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
