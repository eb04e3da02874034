// Runs on Deno: the standalone Deno entry (`pnpm start:deno`, dist/standalone/deno.js).
import { answerCliArgs } from '../common/_answer-cli-args.ts';
import { runDeno } from '../deno/run-deno.ts';

declare const Deno: { readonly args: readonly string[]; exitCode: number };

// The standalone Deno server: `pnpm start:deno`. Deno.args, not process.argv:
// it holds only what follows the script, whatever flags Deno itself was given.
const code = answerCliArgs(Deno.args, 'Deno', { out: (text) => console.log(text), err: (text) => console.error(text) });
if (code === undefined) void runDeno();
else Deno.exitCode = code;
