import { runDeno } from '../run-deno.ts';

// The standalone Deno server: `pnpm start:deno`.
runDeno();
