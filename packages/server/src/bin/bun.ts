import { runBun } from '../run-bun.ts';

// The standalone Bun server: `pnpm start:bun`.
runBun();
